/**
 * The Action's own MCP server (bundled to dist/action/memory-transfer-mcp.js): what the MCP
 * configuration the Action writes with `mcp: true` starts, with the runner's node, from the
 * Action's own folder, so no package is fetched from a registry. The same server as `memory-transfer
 * mcp --pool FILE | --server URL` (src/mcp/stdio.ts), without the pool databases (a run has none).
 *
 *   node memory-transfer-mcp.js --pool FILE [--repo OWNER/NAME] [--visibility V]
 *   node memory-transfer-mcp.js --server URL [--audience AUD]
 */
import { parseArgs } from 'node:util';
import { InputError, describeError } from '../core/errors.js';
import { VISIBILITIES, type Visibility } from '../core/types.js';
import { VERSION } from '../core/version.js';
import type { Logger } from '../ports/index.js';
import { boundRepository, githubUrlOf, poolFileSource, readEventPayload, serveApp, serveStdio } from '../mcp/stdio.js';
import { workflowRunOf } from '../mcp/workflow-run.js';

/** Warnings and errors on stderr (stdout is the protocol); the rest with MEMORY_TRANSFER_DEBUG=1. */
function stderrLogger(env: NodeJS.ProcessEnv): Logger {
  const debug = env.MEMORY_TRANSFER_DEBUG === '1';
  const line = (level: string, message: string, fields?: Record<string, unknown>) => {
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    process.stderr.write(`memory-transfer: ${level}: ${message}${extra}\n`);
  };
  return {
    debug: (message, fields) => debug && line('debug', message, fields),
    info: (message, fields) => debug && line('info', message, fields),
    warn: (message, fields) => line('warning', message, fields),
    error: (message, fields) => line('error', message, fields),
  };
}

function visibilityOf(value: string | undefined): Visibility | undefined {
  if (value === undefined) return undefined;
  const found = VISIBILITIES.find((v) => v === value);
  if (!found) throw new InputError(`--visibility: must be one of ${VISIBILITIES.join(', ')}; got "${value}"`);
  return found;
}

async function serve(argv: string[], env: NodeJS.ProcessEnv, logger: Logger): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      pool: { type: 'string' },
      server: { type: 'string' },
      audience: { type: 'string', default: 'memory-transfer' },
      repo: { type: 'string' },
      visibility: { type: 'string' },
    },
    strict: true,
  });
  if ((values.pool === undefined) === (values.server === undefined))
    throw new InputError('give exactly one of --pool FILE (a pool file) and --server URL (the App)');
  const serving = { logger, version: VERSION, githubUrl: githubUrlOf(env) };
  const run = workflowRunOf(env, await readEventPayload(env));
  if (values.server !== undefined) {
    await serveApp({ serverUrl: values.server, audience: values.audience, version: VERSION, env }, serving);
    return;
  }
  const visibility = visibilityOf(values.visibility);
  const source = await poolFileSource({
    file: values.pool ?? '',
    cwd: process.cwd(),
    bound: boundRepository({ repo: values.repo, visibility }, run),
    unboundVisibility: visibility,
    logger,
    githubUrl: serving.githubUrl,
  });
  await serveStdio(source, serving);
}

const logger = stderrLogger(process.env);
try {
  await serve(process.argv.slice(2), process.env, logger);
} catch (error) {
  logger.error(describeError(error));
  process.exitCode = 1;
}
