import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { END_MARKER, START_MARKER } from '../../src/action/inject/marked-section.js';
import { parsePool, parsePoolEntries, serializePool } from '../../src/core/retrieval/pool-file.js';
import { chatCompletion } from '../helpers/openai-server.js';
import { sampleMemory } from '../helpers/sample-memory.js';
import { examplePayload, harness } from './harness.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const MIGRATION_TASK = 'The database migration fails on a fresh install';
const issue = (title: string, body: string) =>
  examplePayload('issues', 'opened', {
    issue: { ...(examplePayload('issues', 'opened').issue as object), title, body },
  });

describe('run() in pool-file mode', () => {
  it('issues: derives the task from the issue, writes the AGENTS.md section, outputs, summary and prompt file', async () => {
    const h = await harness({
      inputs: { pool: 'pool.jsonl', target: 'agents-md' },
      event: 'issues',
      payload: issue(MIGRATION_TASK, 'Steps: run the migration.'),
    });
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.result?.task).toContain(MIGRATION_TASK);
    expect(Number(h.outputs.count)).toBeGreaterThan(0);
    expect(h.outputs.ids?.split(',')).toContain('m0a00000001');
    expect(h.outputs.insights).toContain('Run migration tests against a fresh database');
    expect(JSON.parse(h.outputs['insights-json'] ?? '[]')[0]).toMatchObject({
      id: 'm0a00000001',
      source: { repo: 'acme/api' },
    });
    const agents = await h.read('AGENTS.md');
    expect(agents).toContain(START_MARKER);
    expect(agents).toContain(h.outputs.insights);
    expect(await readFile(h.outputs['prompt-file'] ?? '', 'utf8')).toBe(h.outputs.insights);
    expect(h.outputs['prompt-file']?.startsWith(h.tempDir)).toBe(true);
    expect(h.summaries[0]).toMatch(
      /\| 1 \| Run migration tests against a fresh database \| 0\.\d\d \| \[acme\/api\]\(https:\/\/github\.com\/acme\/api\/pull\/101\)/,
    );
  });

  it('reads a gzip-compressed pool file (`export --out pool.jsonl.gz`) like a plain one', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl.gz', task: MIGRATION_TASK } });
    const plain = await readFile(path.join(h.workspace, 'pool.jsonl'));
    await writeFile(path.join(h.workspace, 'pool.jsonl.gz'), gzipSync(plain));
    await h.run();
    expect(h.failures).toEqual([]);
    expect(await h.read('AGENTS.md')).toContain('Run migration tests against a fresh database');
  });

  it('a file made for the Action (terms counted ahead, ASCII, gzip) injects what a plain export injects', async () => {
    const plain = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'none' } });
    await plain.run();
    const made = await harness({ inputs: { pool: 'pool.jsonl.gz', task: MIGRATION_TASK, target: 'none' } });
    const { header, memories } = parsePool(await made.read('pool.jsonl'));
    const text = serializePool(header, memories, { forAction: true });
    expect(text.split('\n')[0]).toContain('"terms":');
    await writeFile(path.join(made.workspace, 'pool.jsonl.gz'), gzipSync(text));
    await made.run();
    expect(made.failures).toEqual([]);
    expect(made.outputs['insights-json']).toBe(plain.outputs['insights-json']);
    expect(made.outputs.insights).toBe(plain.outputs.insights);
    expect(Number(made.outputs.count)).toBeGreaterThan(0);
  });

  it('agents-md: a second run changes nothing and the user text stays byte-identical', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK } });
    const user = '# Agent guide\r\n\r\nUse   pnpm, never npm.\r\n';
    await writeFile(path.join(h.workspace, 'AGENTS.md'), user);
    await h.run();
    const first = await h.read('AGENTS.md');
    expect(first.startsWith(user)).toBe(true);
    await h.run();
    expect(await h.read('AGENTS.md')).toBe(first);
    expect(h.result?.files).toEqual([{ path: path.join(h.workspace, 'AGENTS.md'), change: 'unchanged' }]);
  });

  it('agents-md: broken markers fail with one clear line and the file is untouched', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK } });
    const broken = `# Guide\n${START_MARKER}\nmy notes\n${START_MARKER}\n${END_MARKER}\n`;
    await writeFile(path.join(h.workspace, 'AGENTS.md'), broken);
    await h.run();
    expect(h.failures).toHaveLength(1);
    expect(h.failures[0]).toMatch(/AGENTS\.md: broken Memory Transfer markers \(2 start, 1 end\)/);
    expect(await h.read('AGENTS.md')).toBe(broken);
  });

  it('copilot: writes the instructions file under the 4,000-character limit', async () => {
    const h = await harness({
      inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'copilot', 'top-k': '10', 'min-score': '0' },
    });
    await h.run();
    const file = await h.read('.github/instructions/memory-transfer.instructions.md');
    expect(file.startsWith('---\napplyTo: "**"\n---\n')).toBe(true);
    expect(file.length).toBeLessThanOrEqual(4000);
    expect(file).toContain('Run migration tests against a fresh database');
  });

  it('claude: outputs only, never a CLAUDE.md or any workspace file', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'claude' } });
    await h.run();
    expect(h.outputs.insights).toContain('Run migration tests');
    expect(h.outputs.insights).not.toMatch(/["`$\\]/); // safe inside --append-system-prompt "…"
    expect(existsSync(path.join(h.workspace, 'CLAUDE.md'))).toBe(false);
    expect(existsSync(path.join(h.workspace, 'AGENTS.md'))).toBe(false);
  });

  it('codex: a marker section in $CODEX_HOME/AGENTS.md, plus the prompt file', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'codex' } });
    await h.run();
    expect(await readFile(path.join(h.codexHome, 'AGENTS.md'), 'utf8')).toContain('Run migration tests');
    expect(existsSync(path.join(h.workspace, 'AGENTS.md'))).toBe(false);
    expect(await readFile(h.outputs['prompt-file'] ?? '', 'utf8')).toContain('Run migration tests');
  });

  it('openhands: an always-loaded repository microagent', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'openhands' } });
    await h.run();
    const file = await h.read('.openhands/microagents/memory-transfer.md');
    expect(file).toMatch(/^---\nname: memory-transfer\ntype: repo\n/);
    expect(file).toContain('Run migration tests');
  });

  it('file:PATH: a marker section in the named file, keeping the user text', async () => {
    const h = await harness({
      inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'file:docs/CONVENTIONS.md' },
    });
    await mkdir(path.join(h.workspace, 'docs'));
    await writeFile(path.join(h.workspace, 'docs/CONVENTIONS.md'), 'Prefer small functions.\n');
    await h.run();
    const file = await h.read('docs/CONVENTIONS.md');
    expect(file.startsWith('Prefer small functions.\n')).toBe(true);
    expect(file).toContain('Run migration tests');
  });

  it('file:PATH outside the workspace is refused', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'file:../../etc/evil.md' } });
    await h.run();
    expect(h.failures[0]).toMatch(/target: "\.\.\/\.\.\/etc\/evil\.md" is outside the workspace/);
  });

  it('none: outputs only', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'none' } });
    await h.run();
    expect(h.result?.files).toEqual([]);
    expect(Number(h.outputs.count)).toBeGreaterThan(0);
  });

  it('dry-run: outputs and summary, no file written', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, 'dry-run': 'true' } });
    await h.run();
    expect(existsSync(path.join(h.workspace, 'AGENTS.md'))).toBe(false);
    expect(h.outputs['prompt-file']).toBe('');
    expect(h.result?.files[0]?.change).toBe('created');
    expect(h.summaries[0]).toContain('dry run');
  });

  it('issue_comment: the comment joins the issue text', async () => {
    const payload = examplePayload('issue_comment', 'created');
    (payload.issue as Record<string, unknown>).title = 'Flaky job';
    (payload.comment as Record<string, unknown>).body = 'race condition in the concurrent worker, fails intermittently';
    const h = await harness({ inputs: { pool: 'pool.jsonl' }, event: 'issue_comment', payload });
    await h.run();
    expect(h.result?.task).toContain('race condition');
    expect(h.outputs.ids).toContain('m0a00000006');
  });

  it('pull_request: title, body and the changed paths from the API', async () => {
    const payload = examplePayload('pull_request', 'opened');
    const pr = payload.pull_request as Record<string, unknown>;
    pr.title = 'Fix the build broken by the new dependency versions';
    pr.body = 'Bumps the ranges and adapts to the removed API.';
    pr.number = 12;
    const scope = nock('https://api.github.com')
      .get('/repos/acme/web/pulls/12/files')
      .query({ per_page: '100' })
      .reply(200, [{ filename: 'package.json' }, { filename: 'package-lock.json' }]);
    const h = await harness({ inputs: { pool: 'pool.jsonl', token: 'ghs_test' }, event: 'pull_request', payload });
    await h.run();
    scope.done();
    expect(h.result?.task).toContain('Changed paths:\npackage.json\npackage-lock.json');
    expect(h.outputs.ids).toContain('m0a00000004');
  });

  it('pull_request: a failing files API is a warning, not a failure', async () => {
    const payload = examplePayload('pull_request', 'opened');
    (payload.pull_request as Record<string, unknown>).number = 13;
    nock('https://api.github.com').get('/repos/acme/web/pulls/13/files').query(true).reply(500, { message: 'boom' });
    const h = await harness({ inputs: { pool: 'pool.jsonl', token: 'ghs_test' }, event: 'pull_request', payload });
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.warnings.join('\n')).toMatch(/could not list the pull request's changed paths/);
  });

  it('workflow_dispatch: the "task" input of the dispatch', async () => {
    const payload = examplePayload('workflow_dispatch', undefined, {
      inputs: { task: 'dates shift by a day in UTC+13 time zone' },
    });
    const h = await harness({ inputs: { pool: 'pool.jsonl' }, event: 'workflow_dispatch', payload });
    await h.run();
    expect(h.result?.task).toBe('dates shift by a day in UTC+13 time zone');
    expect(h.outputs.ids).toContain('m0a00000003');
  });

  it('an event without a task and no task input fails with one clear line', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl' }, event: 'push', payload: {} });
    await h.run();
    expect(h.failures).toEqual([expect.stringMatching(/^Memory Transfer: task: required for a "push" event/)]);
  });

  describe('with a model that reads the task (model-api-key)', () => {
    const AUCKLAND =
      'Invoice totals are off for customers in Auckland\nThe monthly report puts their last payment in the previous month.';
    const modelInputs = { pool: 'pool.jsonl', 'model-api-key': 'sk-test-key', 'model-base-url': 'https://llm.test/v1' };

    it('injects the routine the model read in a task whose words the rules do not know, sending the task redacted', async () => {
      const byRules = await harness({ inputs: { pool: 'pool.jsonl', task: AUCKLAND } });
      await byRules.run();
      expect(byRules.outputs.count).toBe('0');

      const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
      let sent = '';
      nock('https://llm.test', { reqheaders: { authorization: 'Bearer sk-test-key' } })
        .post('/v1/chat/completions', (body: any) => {
          sent = JSON.stringify(body);
          return body.model === 'gpt-5-mini';
        })
        .reply(200, chatCompletion({ task_kind: 'failure', routines: ['encoding-locale'] }));
      const h = await harness({ inputs: { ...modelInputs, task: `${AUCKLAND}\ntoken ${secret}` } });
      await h.run();
      expect(h.failures).toEqual([]);
      expect(h.outputs.ids).toBe('m0a00000003');
      expect(sent).toContain('customers in Auckland');
      expect(sent).not.toContain(secret);
      expect(JSON.stringify([h.outputs, h.summaries, h.warnings])).not.toContain('sk-test-key');
    });

    it("the summary gives the model's reason for injecting nothing; a failing model leaves the task to the rules", async () => {
      nock('https://llm.test')
        .post('/v1/chat/completions')
        .reply(200, chatCompletion({ task_kind: 'question', routines: [] }));
      const asked = await harness({
        inputs: { ...modelInputs, task: 'Crash on an empty request body', 'read-model': 'small-model' },
      });
      await asked.run();
      expect(asked.outputs.count).toBe('0');
      expect(asked.summaries[0]).toMatch(/No insight was injected: the task is a question/);

      nock('https://llm.test')
        .post('/v1/chat/completions')
        .reply(503, { error: { message: 'overloaded' } });
      const down = await harness({ inputs: { ...modelInputs, task: 'Parser crashes on empty input' } });
      await down.run();
      expect(down.failures).toEqual([]);
      expect(down.outputs.ids?.split(',')).toContain('m0a00000002');
      expect(down.warnings.join('\n')).toMatch(/could not read the task \(HTTP 503/);
    });

    it('names the input that is wrong, and warns that server mode does not use the key', async () => {
      for (const [inputs, message] of [
        [{ ...modelInputs, 'model-base-url': 'llm.test' }, 'model-base-url: must be an http(s) URL'],
        [{ pool: 'pool.jsonl', 'read-model': 'gpt 5' }, 'read-model: must be a model name'],
        [{ pool: 'pool.jsonl', 'read-model': 'gpt-5' }, 'read-model: needs model-api-key (pass it from a secret)'],
      ] as const) {
        const h = await harness({ inputs: { ...inputs, task: 'Crash on an empty request body' } });
        await h.run();
        expect(h.failures).toEqual([expect.stringContaining(message)]);
      }
    });
  });

  it('nothing clears the bar: no file, count 0 and a summary line saying so', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: 'quantum chromodynamics lattice gauge crashes' } });
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.outputs.count).toBe('0');
    expect(h.outputs.insights).toBe('');
    expect(existsSync(path.join(h.workspace, 'AGENTS.md'))).toBe(false);
    expect(h.summaries[0]).toContain('No insight cleared the relevance bar');
  });

  it.each(['docs: fix typo in the README', 'Bump version to 2.0', 'Add a dark mode toggle to the navbar'])(
    'a task with no failure in it (%j) gets no insight, and the summary says why',
    async (task) => {
      const h = await harness({ inputs: { pool: 'pool.jsonl', task } });
      await h.run();
      expect(h.failures).toEqual([]);
      expect(h.outputs.count).toBe('0');
      expect(existsSync(path.join(h.workspace, 'AGENTS.md'))).toBe(false);
      expect(h.summaries[0]).toMatch(
        /No insight was injected: the task is (a chore|documentation)|No insight cleared the relevance bar for this feature request/,
      );
    },
  );

  it.each([
    [{ pool: 'pool.jsonl', 'server-url': 'https://memory.acme.dev' }, /exactly one of "server-url".*both were given/],
    [{}, /exactly one of "server-url".*neither was given/],
    [
      { pool: 'pool.jsonl', 'top-k': 'three' },
      /^Memory Transfer: top-k: must be a whole number from 1 to 10, e\.g\. 3; got "three"$/,
    ],
    [
      { pool: 'pool.jsonl', 'top-k': '50' },
      /^Memory Transfer: top-k: must be a whole number from 1 to 10, e\.g\. 3; got "50"$/,
    ],
    [
      { pool: 'pool.jsonl', 'top-k': '0' },
      /^Memory Transfer: top-k: must be a whole number from 1 to 10, e\.g\. 3; got "0"$/,
    ],
    [
      { pool: 'pool.jsonl', 'top-k': '2.5' },
      /^Memory Transfer: top-k: must be a whole number from 1 to 10, e\.g\. 3; got "2\.5"$/,
    ],
    [
      { pool: 'pool.jsonl', 'min-score': '2' },
      /^Memory Transfer: min-score: must be a number from 0 to 1, e\.g\. 0\.3; got "2"$/,
    ],
    [
      { pool: 'pool.jsonl', 'min-score': 'high' },
      /^Memory Transfer: min-score: must be a number from 0 to 1, e\.g\. 0\.3; got "high"$/,
    ],
    [
      { pool: 'pool.jsonl', 'timeout-seconds': '0' },
      /^Memory Transfer: timeout-seconds: must be a number above 0 up to 300, e\.g\. 10; got "0"$/,
    ],
    [{ pool: 'pool.jsonl', level: 'essay' }, /^Memory Transfer: level: /],
    [{ pool: 'pool.jsonl', 'dry-run': 'yes please' }, /^Memory Transfer: dry-run: must be true or false/],
    [{ 'server-url': 'ftp://memory' }, /^Memory Transfer: server-url: must be an http\(s\) URL/],
    [{ pool: 'pool.jsonl', target: 'vim' }, /^Memory Transfer: target: "vim" is not one of/],
    [{ pool: '../../../etc/passwd' }, /pool: "\.\.\/\.\.\/\.\.\/etc\/passwd" is outside the workspace/],
    [{ pool: 'missing.jsonl' }, /pool: cannot read "missing\.jsonl" \(ENOENT\)/],
  ])('bad inputs %j fail with one clear line', async (inputs, message) => {
    const h = await harness({ inputs: { task: MIGRATION_TASK, ...inputs } });
    await h.run();
    expect(h.failures).toHaveLength(1);
    expect(h.failures[0]).toMatch(message);
  });

  it('a malformed pool file fails naming the line', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK } });
    const pool = await h.read('pool.jsonl');
    await writeFile(path.join(h.workspace, 'pool.jsonl'), pool.replace(/\n\{"id":"m0a00000002"[^\n]*/, '\n{not json'));
    await h.run();
    expect(h.failures[0]).toMatch(/pool: "pool\.jsonl" is not a valid Memory Transfer export: line 3: not valid JSON/);
  });

  it('a file made for the Action reads a line when recall asks for it: a bad one fails the same way', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK } });
    const { header, memories } = parsePool(await h.read('pool.jsonl'));
    const [first = '', ...rest] = serializePool(header, memories, { forAction: true }).split('\n');
    const at = rest.findIndex((line) => line.startsWith('{"id":"m0a00000001"'));
    rest[at] = rest[at]!.replace('"status":"active"', '"status":"live"');
    // the digest and CRC-32 counted again, as a hand that edits the line and its header would
    const body = rest.join('\n');
    const sums = { digest: sha256(body), crc32: crc32(body).toString(16).padStart(8, '0') };
    const terms = { ...(JSON.parse(first) as { terms: object }).terms, ...sums };
    const file = `${JSON.stringify({ ...JSON.parse(first), terms })}\n${body}`;
    // ASCII, as the export writes it: the Action indexes it by the header and reads the line on demand
    expect(isAscii(Buffer.from(file))).toBe(true);
    expect(parsePoolEntries(Buffer.from(file)).entries).toHaveLength(memories.length);
    await writeFile(path.join(h.workspace, 'pool.jsonl'), file);
    await h.run();
    expect(h.failures[0]).toMatch(
      new RegExp(`pool: "pool\\.jsonl" is not a valid Memory Transfer export: line ${at + 2}: status: must be one of`),
    );
  });

  it('a pool of another organization injects nothing, with a warning and a summary that say why', async () => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK }, repository: 'other/web' });
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.outputs.count).toBe('0');
    expect(h.warnings.join('\n')).toMatch(/belongs to "acme".*"other"/);
    // the summary as it renders (Markdown escapes removed)
    const summary = (h.summaries[0] ?? '').replace(/\\(.)/g, '$1');
    expect(summary).toMatch(
      /No insight was injected: the pool file belongs to "acme" but this repository is in "other"/,
    );
    expect(summary).toContain('memory-transfer export --for-action --for-org other');
    expect(summary).not.toContain('relevance bar');
  });

  it("visibility: a private repository's insight never reaches a public repository's run", async () => {
    const CANARY = 'CANARY-7f3a-private-knowledge';
    const secret = sampleMemory({
      id: 'mprivate0001',
      title: `Run migration tests against a fresh database ${CANARY}`,
      description: `After changing a database migration apply every migration ${CANARY}`,
      content: `fresh database migration tests ${CANARY}`,
      tags: ['routine:migration'],
      provenance: [{ ...sampleMemory().provenance[0]!, repo: 'acme/secret-api' }],
      visibility: 'private',
    });
    const h = await harness({
      inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'copilot' },
      payload: issue('x', 'y'),
    });
    await writeFile(
      path.join(h.workspace, 'pool.jsonl'),
      serializePool({ tenant: 'acme', exportedAt: '2025-01-01T00:00:00Z' }, [secret]),
    );
    await h.run();
    const everything =
      JSON.stringify(h.outputs) +
      h.summaries.join('') +
      (await h.read('.github/instructions/memory-transfer.instructions.md').catch(() => ''));
    expect(everything).not.toContain(CANARY);
    expect(everything).not.toContain('secret-api');
    expect(h.outputs.count).toBe('0');

    // the same pool in a private repository of the org does see it
    const priv = await harness({
      inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'none' },
      payload: { repository: { name: 'core', owner: { login: 'acme' }, visibility: 'private', private: true } },
      repository: 'acme/core',
    });
    await writeFile(
      path.join(priv.workspace, 'pool.jsonl'),
      serializePool({ tenant: 'acme', exportedAt: '2025-01-01T00:00:00Z' }, [secret]),
    );
    await priv.run();
    expect(priv.outputs.insights).toContain(CANARY);
  });
});

describe('run() refuses to write through a symlink leaving the workspace', () => {
  it('AGENTS.md pointing outside the workspace (a hostile checkout) is refused, the outside file untouched', async () => {
    const { symlink } = await import('node:fs/promises');
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK } });
    const outside = path.join(h.tempDir, '..', 'outside-profile');
    await writeFile(outside, 'export PATH=/usr/bin\n');
    await symlink(outside, path.join(h.workspace, 'AGENTS.md'));
    await h.run();
    expect(h.failures[0]).toMatch(/target: "AGENTS\.md" leads outside the workspace through a symbolic link/);
    expect(await readFile(outside, 'utf8')).toBe('export PATH=/usr/bin\n');
  });
});

describe('run() never writes in a version-control folder', () => {
  const HOOK = '#!/bin/sh\nnpm test\n';

  it('target: file:.git/hooks/pre-commit (any spelling) fails naming the folder; the hook is untouched', async () => {
    for (const target of ['file:.git/hooks/pre-commit', 'file:./.GIT/hooks/../hooks/pre-commit/']) {
      const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target } });
      await mkdir(path.join(h.workspace, '.git', 'hooks'), { recursive: true });
      await writeFile(path.join(h.workspace, '.git', 'hooks', 'pre-commit'), HOOK, { mode: 0o755 });
      await h.run();
      expect(h.failures[0]).toMatch(/target: ".*" is in a version-control folder \(\.git\)/i);
      expect(await h.read('.git/hooks/pre-commit')).toBe(HOOK);
    }
  });

  it('AGENTS.md linked to a hook not yet there (a hostile checkout) is refused; no hook is created', async () => {
    const { symlink } = await import('node:fs/promises');
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, mcp: 'true' } });
    await mkdir(path.join(h.workspace, '.git', 'hooks'), { recursive: true });
    await symlink('.git/hooks/pre-commit', path.join(h.workspace, 'AGENTS.md'));
    await h.run();
    expect(h.failures[0]).toMatch(/target: "AGENTS\.md" goes through a symbolic link that leads nowhere/);
    expect(existsSync(path.join(h.workspace, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('mcp: true never writes .mcp.json through a link into .git', async () => {
    const { symlink } = await import('node:fs/promises');
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, mcp: 'true' } });
    await mkdir(path.join(h.workspace, '.git', 'hooks'), { recursive: true });
    await writeFile(path.join(h.workspace, '.git', 'hooks', 'pre-push'), HOOK, { mode: 0o755 });
    await symlink('.git/hooks/pre-push', path.join(h.workspace, '.mcp.json'));
    await h.run();
    expect(h.failures[0]).toMatch(/mcp: "\.mcp\.json" is in a version-control folder \(\.git\)/);
    expect(await h.read('.git/hooks/pre-push')).toBe(HOOK);
  });
});

describe('run() with nothing to inject', () => {
  it.each(['copilot', 'openhands', 'agents-md'])('%s: creates no file', async (target) => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: 'quantum chromodynamics lattice gauge', target } });
    await h.run();
    expect(h.result?.files.every((f) => f.change === 'unchanged')).toBe(true);
    expect(existsSync(h.result?.files[0]?.path ?? '')).toBe(false);
  });

  it.each([
    ['agents-md', 'AGENTS.md'],
    ['file:CONVENTIONS.md', 'CONVENTIONS.md'],
  ])('%s: a checked-out file without our markers is left untouched (no empty section)', async (target, name) => {
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: 'quantum chromodynamics lattice gauge', target } });
    const mine = '# Agents\n\nRun `make test` before pushing.\n';
    await writeFile(path.join(h.workspace, name), mine);
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.result?.files.map((f) => f.change)).toEqual(['unchanged']);
    expect(await h.read(name)).toBe(mine);
  });

  it('copilot: a stale instructions file from an earlier run is emptied to its front matter', async () => {
    const h = await harness({
      inputs: { pool: 'pool.jsonl', task: 'quantum chromodynamics lattice gauge', target: 'copilot' },
    });
    await mkdir(path.join(h.workspace, '.github/instructions'), { recursive: true });
    await writeFile(path.join(h.workspace, '.github/instructions/memory-transfer.instructions.md'), 'stale insight');
    await h.run();
    expect(await h.read('.github/instructions/memory-transfer.instructions.md')).toBe('---\napplyTo: "**"\n---\n\n');
  });

  it('a public repository is told which relevant insights were withheld, why, and how to share them', async () => {
    const CANARY = 'CANARY-91b2-private-routine';
    const privateInsight = sampleMemory({
      id: 'mwithheld001',
      title: `Run migration tests against a fresh database ${CANARY}`,
      description: `After changing a database migration apply every migration ${CANARY}`,
      content: `fresh database migration tests ${CANARY}`,
      tags: ['routine:migration'],
      visibility: 'private',
    });
    const pool = serializePool({ tenant: 'acme', exportedAt: '2025-01-01T00:00:00Z' }, [privateInsight]);
    // an event payload without a visibility field counts as public
    const payload = examplePayload('issues', 'opened');
    const repository = payload.repository as Record<string, unknown>;
    delete repository.visibility;
    delete repository.private;
    const h = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'none' }, payload });
    await writeFile(path.join(h.workspace, 'pool.jsonl'), pool);
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.outputs.count).toBe('0');
    const withheld =
      '1 relevant insight was withheld: its sources are more private than this repository (public). ' +
      'To let every repository of the organization see it: `memory-transfer share ID` (ids: mwithheld001), then export the pool file again; ' +
      'or learn from public repositories with `memory-transfer learn --visibility public`.';
    expect(h.summaries[0]).toContain(withheld);
    expect(h.summaries[0]).not.toContain('cleared the relevance bar');
    expect(h.warnings).toContain(`Memory Transfer: ${withheld}`);
    expect(h.summaries.join('') + h.warnings.join('') + JSON.stringify(h.outputs)).not.toContain(CANARY);

    // shared wider, it is injected and nothing is withheld
    const shared = await harness({ inputs: { pool: 'pool.jsonl', task: MIGRATION_TASK, target: 'none' }, payload });
    await writeFile(
      path.join(shared.workspace, 'pool.jsonl'),
      serializePool({ tenant: 'acme', exportedAt: '2025-01-01T00:00:00Z' }, [
        { ...privateInsight, sharedWiderBy: 'cli:admin' },
      ]),
    );
    await shared.run();
    expect(shared.outputs.count).toBe('1');
    expect(shared.summaries[0]).not.toContain('were withheld');
    expect(shared.summaries[0]).not.toContain('was withheld');
  });
});
