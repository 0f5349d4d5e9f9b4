/**
 * recall: task text → the most relevant memories the requester may see, ranked.
 * (Owner: engine. Signatures are the contract; bodies to come.)
 * Hybrid: lexical (store full-text) + dense vectors when an embedder is configured, fused ranks,
 * a quality prior (votes, support, recency, outcomes), diversity, top-k with a minimum score.
 */
import type { MemoryLevel, RecallHit, Requester } from '../core/types.js';
import type { Store } from '../store/store.js';
import type { Clock, Embedder, Logger } from './ports.js';

export interface RecallDeps {
  store: Store;
  embedder?: Embedder;
  logger: Logger;
  clock: Clock;
}

export interface RecallOptions {
  /** default 3 */
  k?: number;
  /** default 'insight' */
  level?: MemoryLevel;
  /** results below this fused score are dropped (default: the engine's relevance bar) */
  minScore?: number;
  /** drop memories whose every source is in this repository (for "transferred only" comments) */
  excludeRepo?: string;
}

export declare function recall(
  deps: RecallDeps,
  requester: Requester,
  task: string,
  options?: RecallOptions,
): Promise<RecallHit[]>;
