/**
 * Pool-file mode: rank a JSONL export (`memory-transfer export`) locally with the same core code
 * as the server (in-memory index, visibility rule), for teams without a server.
 */
import { readFile } from 'node:fs/promises';
import { InputError } from '../core/errors.js';
import { toInjectedInsights, type InjectedInsight } from '../core/render-injection.js';
import type { Memory, MemoryLevel, RecallHit, Requester } from '../core/types.js';
import type { Logger } from '../services/ports.js';
import { resolveInWorkspace } from './workspace-path.js';

/** Parses an export; throws InputError naming the line for a malformed one. */
export type PoolParser = (text: string) => { header: { tenant: string }; memories: Memory[] };

/** Ranks the memories the requester may see for the task (the engine's in-memory recall). */
export type LocalRecall = (
  memories: Memory[],
  requester: Requester,
  task: string,
  options: { k: number; level: MemoryLevel; minScore?: number },
) => Promise<RecallHit[]>;

export interface PoolRecallOptions {
  workspace: string;
  pool: string;
  requester: Requester;
  task: string;
  k: number;
  level: MemoryLevel;
  minScore?: number;
  parsePool: PoolParser;
  recallLocal: LocalRecall;
  logger: Logger;
  githubUrl: string;
}

export async function recallFromPool(options: PoolRecallOptions): Promise<InjectedInsight[]> {
  const file = resolveInWorkspace(options.workspace, options.pool, 'pool');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      `pool: cannot read "${options.pool}" (${code ?? 'error'}); check the path (relative to the workspace)`,
    );
  }
  let memories: Memory[];
  let tenant: string;
  try {
    ({
      memories,
      header: { tenant },
    } = options.parsePool(text));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InputError(`pool: "${options.pool}" is not a valid Memory Transfer export: ${reason}`);
  }
  if (tenant !== options.requester.tenant) {
    options.logger.warn(
      `Memory Transfer: the pool file belongs to "${tenant}" but this repository is in "${options.requester.tenant}"; insights never cross organizations, so none will be injected`,
    );
  }
  const hits = await options.recallLocal(memories, options.requester, options.task, {
    k: options.k,
    level: options.level,
    ...(options.minScore !== undefined ? { minScore: options.minScore } : {}),
  });
  return toInjectedInsights(hits, options.requester, options.githubUrl);
}
