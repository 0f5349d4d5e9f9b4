/** Pool-file mode's ranking: the engine's recall over an in-memory index, no store, no LLM. */
import { MemoryIndex } from '../core/memory-index.js';
import { decodePoolBytes, parsePool } from '../core/pool-file.js';
import { silentLogger, systemClock } from '../services/ports.js';
import { recall } from '../services/recall.js';
import type { LocalRecall, PoolParser } from './pool-recall.js';

export const parsePoolFile: PoolParser = (bytes) => parsePool(decodePoolBytes(bytes));

export const recallInMemory: LocalRecall = (memories, requester, task, options) =>
  recall({ store: new MemoryIndex(memories), logger: silentLogger, clock: systemClock }, requester, task, options);
