// `memory-transfer mcp` over stdio, driven by the MCP SDK's own client, on a real SQLite pool file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePoolBytes, serializePool } from '../../src/core/retrieval/pool-file.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { runCli } from '../helpers/run-cli.js';
import { CANARY, PRIVATE_ID, PROPOSED_ID, PUBLIC_ID, TASK, poolInsights, stdioClient, textOf } from './mcp-harness.js';

let dir: string;
let pool: string;

async function outcomesOf(id: string) {
  const store = await SqliteStore.open(pool);
  try {
    return (await store.getMemory('acme', id))?.outcomes;
  } finally {
    await store.close();
  }
}

/** The environment of a GitHub Actions job in acme/web (public) for this event payload. */
async function jobEnv(event: string, payload: unknown, runId = '9001'): Promise<Record<string, string>> {
  const file = path.join(dir, `${event}-${runId}.json`);
  await writeFile(file, JSON.stringify(payload));
  return {
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/web',
    GITHUB_RUN_ID: runId,
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: file,
  };
}

const REPOSITORY = { id: 4242, full_name: 'acme/web', visibility: 'public', private: false };

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mt-mcp-'));
  pool = path.join(dir, 'pool.db');
  const store = await SqliteStore.open(pool);
  await store.migrate();
  for (const memory of poolInsights()) await store.putMemory(memory);
  await store.close();
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('memory-transfer mcp over stdio, on the pool', () => {
  it('lists its tools with schemas, recalls, shows, and reports an outcome once per run', async () => {
    const env = await jobEnv('workflow_dispatch', { repository: REPOSITORY, inputs: {} });
    const { client, close, stderr } = await stdioClient(['--db', pool, 'mcp'], { ...env, MEMORY_TRANSFER_DEBUG: '1' });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['recall', 'report_outcome', 'show']);
      const recallTool = tools.find((t) => t.name === 'recall')!;
      expect(recallTool.description).toMatch(/validation routines/);
      expect(recallTool.inputSchema.required).toEqual(['task']);
      expect(Object.keys(recallTool.inputSchema.properties ?? {})).toEqual(['task', 'repo', 'k', 'level']);

      const recalled = await client.callTool({ name: 'recall', arguments: { task: TASK } });
      expect(recalled.isError).toBeFalsy();
      const insights = (recalled.structuredContent as { insights: any[] }).insights;
      // a public repository's run: the private source never shows, nor the proposed insight
      expect(insights.map((i) => i.id)).toEqual([PUBLIC_ID]);
      expect(insights[0]).toMatchObject({ transferred: true, source: { repo: 'acme/api' } });
      expect(Object.keys(insights[0].parts).sort()).toEqual(['lexical', 'prior', 'routine', 'vector']);
      expect(JSON.stringify(recalled)).not.toContain(CANARY);
      expect(textOf(recalled)).toContain(`[${PUBLIC_ID}]`);

      const shown = await client.callTool({ name: 'show', arguments: { id: PUBLIC_ID } });
      expect((shown.structuredContent as any).insight).toMatchObject({
        id: PUBLIC_ID,
        sources: [{ repo: 'acme/api', kind: 'pull_request', ref: '12', url: 'https://github.com/acme/api/pull/12' }],
        hiddenSources: 0,
        // what it teaches, as the pool holds it ("routine:migration" names no routine kind)
        lesson: null,
        routines: [],
        facet: null,
        examples: [],
        writer: 'rules',
      });
      const hidden = await client.callTool({ name: 'show', arguments: { id: PRIVATE_ID } });
      expect(hidden.isError).toBe(true);
      expect(textOf(hidden)).toMatch(/no insight "m0000000102" that this repository may see/);
      expect(JSON.stringify(hidden)).not.toContain(CANARY);

      const before = await outcomesOf(PUBLIC_ID);
      const first = await client.callTool({
        name: 'report_outcome',
        arguments: { ids: [PUBLIC_ID, PRIVATE_ID], outcome: 'helped', note: 'caught a broken migration' },
      });
      expect(first.structuredContent).toEqual({
        outcome: 'helped',
        recorded: [PUBLIC_ID],
        already: [],
        unknown: [PRIVATE_ID],
      });
      const second = await client.callTool({
        name: 'report_outcome',
        arguments: { ids: [PUBLIC_ID], outcome: 'wrong' },
      });
      expect(second.structuredContent).toMatchObject({ recorded: [], already: [PUBLIC_ID] });
      expect(await outcomesOf(PUBLIC_ID)).toEqual({
        success: (before?.success ?? 0) + 1,
        failure: before?.failure ?? 0,
      });
      expect(await outcomesOf(PRIVATE_ID)).toEqual({ success: 0, failure: 0 });
      // logs go to stderr (stdout is the protocol, which the client parsed throughout)
      expect(stderr()).toContain('mcp: serving the pool');
      expect(stderr()).toContain('agent report recorded');
      expect(stderr()).not.toMatch(/error/i);
    } finally {
      await close();
    }
  });

  it('answers bad arguments and unknown ids with tool errors that say what to change', async () => {
    const { client, close } = await stdioClient(['--db', pool, '--tenant', 'acme', 'mcp']);
    try {
      const empty = await client.callTool({ name: 'recall', arguments: { task: '  ' } });
      expect(empty.isError).toBe(true);
      expect(textOf(empty)).toMatch(/describe the task in words.*at task/s);
      const tooMany = await client.callTool({ name: 'recall', arguments: { task: TASK, k: 99 } });
      expect(tooMany.isError).toBe(true);
      expect(textOf(tooMany)).toMatch(/at most 10.*at k/s);
      const badOutcome = await client.callTool({
        name: 'report_outcome',
        arguments: { ids: [PUBLIC_ID], outcome: 'great' },
      });
      expect(badOutcome.isError).toBe(true);
      expect(textOf(badOutcome)).toMatch(/helped, not_relevant, wrong/);
      const badId = await client.callTool({ name: 'show', arguments: { id: '../etc/passwd' } });
      expect(badId.isError).toBe(true);
      expect(textOf(badId)).toMatch(/insight id as returned by recall/);
      // a local admin (no repository) sees every visibility of its tenant, never a proposed insight
      const admin = await client.callTool({ name: 'recall', arguments: { task: TASK, k: 5 } });
      const ids = (admin.structuredContent as { insights: { id: string }[] }).insights.map((i) => i.id);
      expect(ids).toContain(PRIVATE_ID);
      expect(ids).not.toContain(PROPOSED_ID);
      // a repository argument reads with that repository's visibility (private by default, as `recall --repo`)
      const publicRepo = await client.callTool({ name: 'recall', arguments: { task: TASK, repo: 'acme/site' } });
      expect(publicRepo.isError).toBeFalsy();
    } finally {
      await close();
    }
  });

  it("refuses a fork's and an outsider's run their vote, and nothing changes", async () => {
    const fork = await jobEnv(
      'pull_request',
      { repository: REPOSITORY, pull_request: { author_association: 'NONE', head: { repo: { id: 31337 } } } },
      '9100',
    );
    for (const env of [
      fork,
      await jobEnv('issues', { repository: REPOSITORY, issue: { author_association: 'NONE' } }, '9101'),
      await jobEnv('pull_request_target', { repository: REPOSITORY }, '9102'),
    ]) {
      const { client, close } = await stdioClient(['--db', pool, 'mcp'], env);
      try {
        const before = await outcomesOf(PUBLIC_ID);
        // it may still read
        const recalled = await client.callTool({ name: 'recall', arguments: { task: TASK } });
        expect((recalled.structuredContent as { insights: unknown[] }).insights).toHaveLength(1);
        const vote = await client.callTool({
          name: 'report_outcome',
          arguments: { ids: [PUBLIC_ID], outcome: 'wrong' },
        });
        expect(vote.isError).toBe(true);
        expect(textOf(vote)).toMatch(/this run may not report outcomes: .*(fork|outside)/);
        expect(await outcomesOf(PUBLIC_ID)).toEqual(before);
      } finally {
        await close();
      }
    }
  });

  it('serves the top insights as a resource, in Markdown and JSON', async () => {
    const env = await jobEnv('workflow_dispatch', { repository: REPOSITORY }, '9200');
    const { client, close } = await stdioClient(['--db', pool, 'mcp'], env);
    try {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(['memory-transfer://insights/top']);
      const read = await client.readResource({ uri: 'memory-transfer://insights/top' });
      const markdown = read.contents.find((c) => c.mimeType === 'text/markdown') as { text: string };
      expect(markdown.text).toContain('Run migration tests against a fresh database');
      expect(markdown.text).not.toContain(CANARY);
      const json = JSON.parse((read.contents.find((c) => c.mimeType === 'application/json') as { text: string }).text);
      expect(json.insights.map((i: { id: string }) => i.id)).toEqual([PUBLIC_ID]);
    } finally {
      await close();
    }
  });
});

describe('memory-transfer mcp over stdio, on a pool file', () => {
  it("recalls from a gzip file (the README's export) and refuses report_outcome (a pool file is read-only)", async () => {
    const file = path.join(dir, 'acme.jsonl.gz');
    const text = serializePool({ tenant: 'acme', exportedAt: '2026-01-01T00:00:00.000Z' }, poolInsights(), {
      forAction: true,
    });
    await writeFile(file, encodePoolBytes(text, file));
    const env = await jobEnv('workflow_dispatch', { repository: REPOSITORY }, '9300');
    const { client, close } = await stdioClient(['mcp', '--pool', file], env);
    try {
      const recalled = await client.callTool({ name: 'recall', arguments: { task: TASK } });
      expect((recalled.structuredContent as { insights: { id: string }[] }).insights.map((i) => i.id)).toEqual([
        PUBLIC_ID,
      ]);
      const vote = await client.callTool({
        name: 'report_outcome',
        arguments: { ids: [PUBLIC_ID], outcome: 'helped' },
      });
      expect(vote.isError).toBe(true);
      expect(textOf(vote)).toMatch(/pool file, which is read-only/);
    } finally {
      await close();
    }
  });

  it("refuses at start a pool file of another organization than the repository's", async () => {
    const file = path.join(dir, 'acme-tenant.jsonl');
    await writeFile(file, serializePool({ tenant: 'acme', exportedAt: '2026-01-01T00:00:00.000Z' }, poolInsights()));
    const result = await runCli(['mcp', '--pool', file, '--repo', 'globex/app'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /is the pool of "acme", but this server answers for "globex": insights never cross organizations/,
    );
  });

  it('a pool error is a tool error, never a crash: a missing pool file fails at start with one line', async () => {
    const result = await runCli(['mcp', '--pool', path.join(dir, 'missing.jsonl')], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^memory-transfer: --pool: cannot read ".*missing\.jsonl"/);
  });
});

describe('memory-transfer mcp --help', () => {
  it('documents every option', async () => {
    const { code, stdout } = await runCli(['mcp', '--help'], dir);
    expect(code).toBe(0);
    for (const option of [
      '--pool <file>',
      '--server <url>',
      '--audience <aud>',
      '--repo <owner/name>',
      '--visibility <visibility>',
      '--run-id <id>',
      '--db',
      '--tenant',
    ]) {
      expect(stdout).toContain(option);
    }
    expect(stdout).toMatch(/report_outcome/);
    expect(stdout).toMatch(/memory-transfer:\/\/insights\/top/);
  });

  it('refuses two sources with one clear line', async () => {
    const result = await runCli(['--db', pool, 'mcp', '--server', 'https://memory.acme.dev'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--db cannot be combined with --server/);
  });
});
