/**
 * The Memory Transfer MCP server as an agent starts it: the Action's own bundled server
 * (dist/action/memory-transfer-mcp.js, by absolute path) run by the runner's node (absolute path),
 * so nothing is fetched from a registry, with the run's pool file or the App's URL, and the names
 * of the environment variables it needs from the job (the OIDC token request, in server mode).
 * Values that are secrets are never written to a file: each agent's configuration passes them
 * through by name.
 */
import type { Visibility } from '../../core/types.js';

export const MCP_SERVER_KEY = 'memory-transfer';
/** the server's tools as Claude Code names them (for --allowedTools) */
export const CLAUDE_TOOL_NAMES = ['recall', 'show', 'report_outcome'].map((tool) => `mcp__${MCP_SERVER_KEY}__${tool}`);
/** what server mode needs from the job to ask GitHub for the run's OIDC token */
export const OIDC_ENV = ['ACTIONS_ID_TOKEN_REQUEST_URL', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN'];

export interface McpServerSpec {
  command: string;
  args: string[];
  /** variable names passed through from the job's environment */
  env: string[];
}

/** The file name of the Action's bundled MCP server (what marks an entry as ours). */
export const MCP_SERVER_FILE = 'memory-transfer-mcp.js';

/** How to start the Action's own MCP server: both absolute paths. */
export interface McpServerProgram {
  /** the runner's node (process.execPath) */
  node: string;
  /** the Action's dist/action/memory-transfer-mcp.js */
  script: string;
}

export type McpSource =
  | { kind: 'pool'; /** absolute path */ pool: string; repo: string; visibility: Visibility }
  | { kind: 'server'; serverUrl: string; audience: string };

export function mcpServerSpec(source: McpSource, program: McpServerProgram): McpServerSpec {
  if (source.kind === 'pool') {
    return {
      command: program.node,
      args: [program.script, '--pool', source.pool, '--repo', source.repo, '--visibility', source.visibility],
      env: [],
    };
  }
  return {
    command: program.node,
    args: [program.script, '--server', source.serverUrl, '--audience', source.audience],
    env: OIDC_ENV,
  };
}

/**
 * True when an existing entry is one the Action wrote (ours to update): it runs the Action's
 * MCP server file, or `memory-transfer mcp` (what earlier versions wrote); anything else is the user's.
 */
export function isOurServer(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const args = (entry as { args?: unknown }).args;
  if (!Array.isArray(args)) return false;
  const words = args.map(String);
  if (words[0]?.split(/[\\/]/).pop() === MCP_SERVER_FILE) return true;
  const at = words.findIndex((word) => /^memory-transfer(@[^\s/]+)?$/.test(word));
  return at >= 0 && words[at + 1] === 'mcp';
}
