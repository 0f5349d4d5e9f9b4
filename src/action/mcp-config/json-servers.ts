/**
 * Adds the memory-transfer entry to a JSON MCP configuration (`.mcp.json` and Claude Code's
 * --mcp-config: `mcpServers`; VS Code's `.vscode/mcp.json`: `servers`). Every other key and server
 * is kept as it is; an entry named memory-transfer that does not start `memory-transfer mcp` is the
 * user's and is left alone; a file that is not plain JSON (VS Code allows comments) is never
 * rewritten. Writes only when something changes, so a second run changes nothing.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { readIfExists, writeIfChanged, type FileChange } from '../inject/target.js';
import { MCP_SERVER_KEY, isOurServer, type McpServerSpec } from './server-spec.js';

export interface McpFileChange extends FileChange {
  /** why the file was left as it is, when it was (a warning for the job log) */
  note?: string;
}

export type JsonDialect = 'mcpServers' | 'vscode';

/** The entry in each dialect; secret values are references the agent expands from its environment. */
export function jsonEntry(spec: McpServerSpec, dialect: JsonDialect): Record<string, unknown> {
  const env = Object.fromEntries(
    spec.env.map((name) => [name, dialect === 'vscode' ? `\${env:${name}}` : `\${${name}}`]),
  );
  return {
    ...(dialect === 'vscode' ? { type: 'stdio' } : {}),
    command: spec.command,
    args: spec.args,
    ...(spec.env.length > 0 ? { env } : {}),
  };
}

const configSchema = z.record(z.string(), z.unknown());
const serversSchema = z.record(z.string(), z.unknown());

export async function upsertJsonServer(
  file: string,
  spec: McpServerSpec,
  dialect: JsonDialect,
  dryRun: boolean,
): Promise<McpFileChange> {
  const key = dialect === 'vscode' ? 'servers' : 'mcpServers';
  const entry = jsonEntry(spec, dialect);
  const text = await readIfExists(file);
  let config: Record<string, unknown> = {};
  if (text !== undefined && text.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return {
        path: file,
        change: 'unchanged',
        note: `${file} is not plain JSON (comments?); add the memory-transfer server by hand (docs/mcp.md)`,
      };
    }
    const object = configSchema.safeParse(parsed);
    if (!object.success)
      return { path: file, change: 'unchanged', note: `${file} is not a JSON object; left as it is` };
    config = object.data;
  }
  const servers = serversSchema.safeParse(config[key] ?? {});
  if (!servers.success)
    return { path: file, change: 'unchanged', note: `${file}: "${key}" is not an object; left as it is` };
  const existing = servers.data[MCP_SERVER_KEY];
  if (existing !== undefined && !isOurServer(existing)) {
    return {
      path: file,
      change: 'unchanged',
      note: `${file} already has its own "${MCP_SERVER_KEY}" server; left as it is`,
    };
  }
  if (isDeepStrictEqual(existing, entry)) return { path: file, change: 'unchanged' };
  const next = { ...config, [key]: { ...servers.data, [MCP_SERVER_KEY]: entry } };
  return writeIfChanged(file, `${JSON.stringify(next, null, 2)}\n`, dryRun);
}
