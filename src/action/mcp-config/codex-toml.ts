/**
 * Adds the memory-transfer server to Codex's `$CODEX_HOME/config.toml` as a
 * `[mcp_servers.memory-transfer]` table between two marker comments. The rest of the file is
 * never parsed nor rewritten: the block is replaced in place, or appended (a table header closes
 * whatever came before it). A table of that name that the user wrote is left alone (TOML forbids
 * defining it twice). Writes only when something changes.
 */
import { readIfExists, writeIfChanged } from '../inject/target.js';
import type { McpFileChange } from './json-servers.js';
import { MCP_SERVER_KEY, type McpServerSpec } from './server-spec.js';

const BEGIN = `# >>> ${MCP_SERVER_KEY} MCP server (written by the Memory Transfer Action; this block is replaced on every run) >>>`;
const END = `# <<< ${MCP_SERVER_KEY} MCP server <<<`;
/** room for a slow start on a busy runner (the Action's server starts in well under a second) */
const STARTUP_TIMEOUT_SEC = 60;

/** A TOML basic string (JSON's escapes are TOML's, for the characters that need one). */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

function tomlArray(values: string[]): string {
  return `[${values.map(tomlString).join(', ')}]`;
}

export function codexBlock(spec: McpServerSpec): string {
  return [
    BEGIN,
    `[mcp_servers.${MCP_SERVER_KEY}]`,
    `command = ${tomlString(spec.command)}`,
    `args = ${tomlArray(spec.args)}`,
    ...(spec.env.length > 0 ? [`env_vars = ${tomlArray(spec.env)}`] : []),
    `startup_timeout_sec = ${STARTUP_TIMEOUT_SEC}`,
    END,
  ].join('\n');
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const OUR_BLOCK = new RegExp(`${escaped(BEGIN)}[\\s\\S]*?${escaped(END)}`);
/** `[mcp_servers.memory-transfer]`, quoted or not, or dotted keys under it */
const USER_TABLE = new RegExp(
  String.raw`^\s*(\[\s*mcp_servers\s*\.\s*(?:"${MCP_SERVER_KEY}"|'${MCP_SERVER_KEY}'|${MCP_SERVER_KEY})\s*[\].]|mcp_servers\s*\.\s*(?:"${MCP_SERVER_KEY}"|${MCP_SERVER_KEY})\s*\.)`,
  'm',
);

export async function upsertCodexServer(file: string, spec: McpServerSpec, dryRun: boolean): Promise<McpFileChange> {
  const block = codexBlock(spec);
  const text = (await readIfExists(file)) ?? '';
  if (OUR_BLOCK.test(text))
    return writeIfChanged(
      file,
      text.replace(OUR_BLOCK, () => block),
      dryRun,
    );
  if (USER_TABLE.test(text)) {
    return {
      path: file,
      change: 'unchanged',
      note: `${file} already defines its own [mcp_servers.${MCP_SERVER_KEY}]; left as it is`,
    };
  }
  const before = text === '' ? '' : `${text.replace(/\n*$/, '')}\n\n`;
  return writeIfChanged(file, `${before}${block}\n`, dryRun);
}
