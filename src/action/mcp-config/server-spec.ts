/**
 * The Memory Transfer MCP server as an agent starts it: `npx -y memory-transfer@VERSION mcp` with
 * the run's pool file or the App's URL, and the names of the environment variables it needs from
 * the job (the OIDC token request, in server mode). Values that are secrets are never written to
 * a file: each agent's configuration passes them through by name.
 */
import { VERSION } from '../../core/version.js';
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

export type McpSource =
  | { kind: 'pool'; /** absolute path */ pool: string; repo: string; visibility: Visibility }
  | { kind: 'server'; serverUrl: string; audience: string };

export function mcpServerSpec(source: McpSource): McpServerSpec {
  const base = ['-y', `memory-transfer@${VERSION}`, 'mcp'];
  if (source.kind === 'pool') {
    return {
      command: 'npx',
      args: [...base, '--pool', source.pool, '--repo', source.repo, '--visibility', source.visibility],
      env: [],
    };
  }
  return {
    command: 'npx',
    args: [...base, '--server', source.serverUrl, '--audience', source.audience],
    env: OIDC_ENV,
  };
}

/** True when an existing entry starts `memory-transfer mcp` (ours to update); anything else is the user's. */
export function isOurServer(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const args = (entry as { args?: unknown }).args;
  if (!Array.isArray(args)) return false;
  const words = args.map(String);
  const at = words.findIndex((word) => /^memory-transfer(@[^\s/]+)?$/.test(word));
  return at >= 0 && words[at + 1] === 'mcp';
}
