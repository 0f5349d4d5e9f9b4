// `mcp: true`: the Action writes each agent's MCP configuration, as files, idempotently, never
// touching the user's own servers.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_MCP_SERVER, harness, type Harness } from './harness.js';

const TASK = 'The database migration fails on a fresh install';
const NODE = process.execPath;

async function poolRun(target: string, before?: (h: Harness) => Promise<void>) {
  const h = await harness({ inputs: { pool: 'pool.jsonl', task: TASK, target, mcp: 'true' } });
  await before?.(h);
  await h.run();
  expect(h.failures).toEqual([]);
  return h;
}

/** Runs the Action a second time in the same job: nothing may change. */
async function secondRunChangesNothing(h: Harness, files: string[]) {
  const before = await Promise.all(files.map((f) => readFile(f, 'utf8')));
  await h.run();
  expect(h.failures).toEqual([]);
  expect(h.result?.mcp?.files.map((f) => f.change)).toEqual(h.result?.mcp?.files.map(() => 'unchanged'));
  expect(await Promise.all(files.map((f) => readFile(f, 'utf8')))).toEqual(before);
}

describe('mcp: true in pool-file mode', () => {
  it('claude: a --mcp-config file outside the repository and the claude-args output', async () => {
    const h = await poolRun('claude');
    const config = h.outputs['mcp-config'] ?? '';
    expect(config).toBe(path.join(h.tempDir, 'memory-transfer-mcp.json'));
    expect(JSON.parse(await readFile(config, 'utf8'))).toEqual({
      mcpServers: {
        'memory-transfer': {
          command: NODE,
          args: [
            ACTION_MCP_SERVER,
            '--pool',
            path.join(h.workspace, 'pool.jsonl'),
            '--repo',
            'acme/web',
            '--visibility',
            'public',
          ],
        },
      },
    });
    expect(h.outputs['claude-args']).toBe(
      `--mcp-config ${config} --allowedTools mcp__memory-transfer__recall,mcp__memory-transfer__show,mcp__memory-transfer__report_outcome`,
    );
    expect(h.summaries[0]).toContain('MCP server for the agent');
    await secondRunChangesNothing(h, [config]);
  });

  it('agents-md: .mcp.json in the workspace, keeping the user’s servers and keys', async () => {
    const h = await poolRun('agents-md', async (h) => {
      await writeFile(
        path.join(h.workspace, '.mcp.json'),
        JSON.stringify({ mcpServers: { github: { command: 'gh-mcp', args: ['serve'] } }, other: true }, null, 4),
      );
    });
    const written = JSON.parse(await h.read('.mcp.json'));
    expect(written.other).toBe(true);
    expect(written.mcpServers.github).toEqual({ command: 'gh-mcp', args: ['serve'] });
    expect(written.mcpServers['memory-transfer'].args.slice(0, 2)).toEqual([ACTION_MCP_SERVER, '--pool']);
    await secondRunChangesNothing(h, [path.join(h.workspace, '.mcp.json'), h.outputs['mcp-config'] ?? '']);
  });

  it('copilot: .vscode/mcp.json in VS Code’s form; a server of the same name the user wrote is left alone', async () => {
    const h = await poolRun('copilot');
    const vscode = JSON.parse(await h.read('.vscode/mcp.json'));
    expect(vscode.servers['memory-transfer']).toMatchObject({ type: 'stdio', command: NODE });
    await secondRunChangesNothing(h, [path.join(h.workspace, '.vscode/mcp.json')]);

    const own = { servers: { 'memory-transfer': { type: 'http', url: 'https://memory.acme.dev/mcp' } } };
    await writeFile(path.join(h.workspace, '.vscode/mcp.json'), JSON.stringify(own));
    await h.run();
    expect(JSON.parse(await h.read('.vscode/mcp.json'))).toEqual(own);
    expect(h.warnings.join('\n')).toMatch(/already has its own "memory-transfer" server; left as it is/);
  });

  it('copilot: a .vscode/mcp.json with comments is never rewritten', async () => {
    const jsonc = '{\n  // my servers\n  "servers": {}\n}\n';
    const h = await poolRun('copilot', async (h) => {
      await mkdir(path.join(h.workspace, '.vscode'), { recursive: true });
      await writeFile(path.join(h.workspace, '.vscode/mcp.json'), jsonc);
    });
    expect(await h.read('.vscode/mcp.json')).toBe(jsonc);
    expect(h.warnings.join('\n')).toMatch(/is not plain JSON \(comments\?\); add the memory-transfer server by hand/);
  });

  it('codex: a [mcp_servers.memory-transfer] table in $CODEX_HOME/config.toml after the user’s own settings', async () => {
    const mine = 'model = "o4-mini"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\nargs = ["serve"]\n';
    const h = await poolRun('codex', async (h) => {
      await mkdir(h.codexHome, { recursive: true });
      await writeFile(path.join(h.codexHome, 'config.toml'), mine);
    });
    const file = path.join(h.codexHome, 'config.toml');
    const toml = await readFile(file, 'utf8');
    expect(toml.startsWith(mine)).toBe(true);
    expect(toml).toContain(`[mcp_servers.memory-transfer]\ncommand = ${JSON.stringify(NODE)}\n`);
    expect(toml).toContain(
      `args = [${JSON.stringify(ACTION_MCP_SERVER)}, "--pool", ${JSON.stringify(path.join(h.workspace, 'pool.jsonl'))}`,
    );
    expect(toml.match(/\[mcp_servers\.memory-transfer\]/g)).toHaveLength(1);
    await secondRunChangesNothing(h, [file]);
  });

  it('codex: a table of that name the user wrote is left alone', async () => {
    const mine = '[mcp_servers."memory-transfer"]\ncommand = "my-own"\n';
    const h = await poolRun('codex', async (h) => {
      await mkdir(h.codexHome, { recursive: true });
      await writeFile(path.join(h.codexHome, 'config.toml'), mine);
    });
    expect(await readFile(path.join(h.codexHome, 'config.toml'), 'utf8')).toBe(mine);
    expect(h.warnings.join('\n')).toMatch(/already defines its own \[mcp_servers\.memory-transfer\]/);
  });

  it('none, openhands, file:PATH: the generic JSON file only; without mcp nothing is written', async () => {
    const h = await poolRun('openhands');
    expect(h.result?.mcp?.files.map((f) => f.path)).toEqual([h.outputs['mcp-config']]);
    const off = await harness({ inputs: { pool: 'pool.jsonl', task: TASK, target: 'none' } });
    await off.run();
    expect(off.outputs['mcp-config']).toBe('');
    expect(off.outputs['claude-args']).toBe('');
    expect(off.result?.mcp).toBeUndefined();
  });

  it('dry run: computes the configuration and writes nothing', async () => {
    const h = await harness({
      inputs: { pool: 'pool.jsonl', task: TASK, target: 'agents-md', mcp: 'true', 'dry-run': 'true' },
    });
    await h.run();
    expect(h.result?.mcp?.files.map((f) => f.change)).toEqual(['created', 'created']);
    await expect(h.read('.mcp.json')).rejects.toThrow(/ENOENT/);
  });
});

describe('mcp: true in server mode', () => {
  it('points at the App with the audience, and passes the OIDC request variables by name, never by value', async () => {
    const h = await harness({
      inputs: {
        'server-url': 'https://memory.acme.dev',
        task: TASK,
        target: 'agents-md',
        mcp: 'true',
        'report-usage': 'false',
      },
      withPool: false,
      // the recall itself is not the point here: the App cannot be reached, the run continues
      getIdToken: async () => {
        throw new Error('no OIDC in this test');
      },
    });
    await h.run();
    expect(h.failures).toEqual([]);
    const entry = JSON.parse(await h.read('.mcp.json')).mcpServers['memory-transfer'];
    expect(entry).toEqual({
      command: NODE,
      args: [ACTION_MCP_SERVER, '--server', 'https://memory.acme.dev', '--audience', 'memory-transfer'],
      env: {
        ACTIONS_ID_TOKEN_REQUEST_URL: '${ACTIONS_ID_TOKEN_REQUEST_URL}',
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: '${ACTIONS_ID_TOKEN_REQUEST_TOKEN}',
      },
    });
  });
});
