/** Pool-file mode's ranking: the engine's recall over an in-memory index, no store; a model reads the task when the step has one. */
import { MemoryIndex } from '../core/retrieval/memory-index.js';
import { parsePoolEntries } from '../core/retrieval/pool-file.js';
import { AGENT_TASK_KINDS } from '../core/retrieval/task-kind.js';
import { silentLogger, systemClock } from '../ports/index.js';
import { recall } from '../services/recall.js';
import type { LocalRecall, PoolParser } from './pool-recall.js';

export const parsePoolFile: PoolParser = (bytes) => parsePoolEntries(bytes);

/** One index per list of entries: the recall of what is withheld reads the same list again. */
const indexes = new WeakMap<readonly object[], MemoryIndex>();

export const recallInMemory: LocalRecall = (entries, requester, task, options) => {
  let index = indexes.get(entries);
  if (!index) {
    index = MemoryIndex.ofEntries(entries, options.stats);
    indexes.set(entries, index);
  }
  const { stats: _stats, taskReader, ...rest } = options;
  const deps = { store: index, logger: silentLogger, clock: systemClock, ...(taskReader ? { taskReader } : {}) };
  // the agent after this step may be building a feature: it is given routines for that too
  return recall(deps, requester, task, {
    taskKinds: AGENT_TASK_KINDS,
    ...rest,
  });
};
