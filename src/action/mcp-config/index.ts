/**
 * `mcp: true`: writes the agent's MCP configuration so it can call Memory Transfer mid-run. Per
 * target (docs/mcp.md):
 * - every target: a JSON file in RUNNER_TEMP (outside the repository) in the common `mcpServers`
 *   form, the `mcp-config` output; it is Claude Code's `--mcp-config` file (`claude-args` output);
 * - agents-md: `.mcp.json` in the workspace (Claude Code's project file, read by other agents too);
 * - copilot: `.vscode/mcp.json` (Copilot in VS Code); the Copilot coding agent takes its MCP
 *   configuration from the repository's settings, where the generic JSON can be pasted;
 * - codex: `[mcp_servers.memory-transfer]` in `$CODEX_HOME/config.toml`.
 * Idempotent; never touches another server, nor a memory-transfer entry the user wrote.
 */
import path from 'node:path';
import { upsertCodexServer } from './codex-toml.js';
import { upsertJsonServer, type McpFileChange } from './json-servers.js';
import { CLAUDE_TOOL_NAMES, type McpServerSpec } from './server-spec.js';
import { resolveWritableInWorkspace } from '../workspace-path.js';

export const MCP_CONFIG_FILE_NAME = 'memory-transfer-mcp.json';

export interface McpConfigEnv {
  workspace: string;
  codexHome: string;
  /** RUNNER_TEMP */
  tempDir: string;
  dryRun: boolean;
}

export interface McpConfigResult {
  /** the generic JSON file (`mcpServers`), Claude Code's --mcp-config */
  config: string;
  /** the arguments to add to claude's command line (claude-code-action's `claude_args`) */
  claudeArgs: string;
  files: McpFileChange[];
}

/** Quotes a path for a shell-like command line when it needs it. */
function argument(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export async function writeMcpConfig(target: string, spec: McpServerSpec, env: McpConfigEnv): Promise<McpConfigResult> {
  const config = path.join(env.tempDir, MCP_CONFIG_FILE_NAME);
  const files: McpFileChange[] = [await upsertJsonServer(config, spec, 'mcpServers', env.dryRun)];
  if (target === 'agents-md') {
    files.push(
      await upsertJsonServer(
        resolveWritableInWorkspace(env.workspace, '.mcp.json', 'mcp'),
        spec,
        'mcpServers',
        env.dryRun,
      ),
    );
  } else if (target === 'copilot') {
    files.push(
      await upsertJsonServer(
        resolveWritableInWorkspace(env.workspace, '.vscode/mcp.json', 'mcp'),
        spec,
        'vscode',
        env.dryRun,
      ),
    );
  } else if (target === 'codex') {
    files.push(await upsertCodexServer(path.join(env.codexHome, 'config.toml'), spec, env.dryRun));
  }
  return {
    config,
    claudeArgs: `--mcp-config ${argument(config)} --allowedTools ${CLAUDE_TOOL_NAMES.join(',')}`,
    files,
  };
}

export { mcpServerSpec, type McpServerProgram, type McpServerSpec, type McpSource } from './server-spec.js';
