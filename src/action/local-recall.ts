/** Pool-file mode's ranking: the engine's recall over an in-memory index, no store, no LLM. */
import { MemoryIndex } from '../core/memory-index.js';
import { parsePoolBytes } from '../core/pool-file.js';
import { silentLogger, systemClock } from '../services/ports.js';
import { recall } from '../services/recall.js';
import type { LocalRecall, PoolParser } from './pool-recall.js';

export const parsePoolFile: PoolParser = (bytes) => parsePoolBytes(bytes);

/** One index per list of memories: the recall of what is withheld reads the same list again. */
const indexes = new WeakMap<readonly object[], MemoryIndex>();

export const recallInMemory: LocalRecall = (memories, requester, task, options) => {
  let index = indexes.get(memories);
  if (!index) {
    index = new MemoryIndex(memories, [], options.stats);
    indexes.set(memories, index);
  }
  const { stats: _stats, ...rest } = options;
  return recall({ store: index, logger: silentLogger, clock: systemClock }, requester, task, rest);
};
