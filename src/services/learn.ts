/**
 * learn: fix → memories in the pool. (Owner: engine. Signatures are the contract; bodies to come.)
 * Pipeline: skip if already learned → strip hidden text → redact secrets → abstract → specificity
 * check + screen → embed → merge with near-duplicates (support +1, provenance appended) → store.
 * Untrusted fixes produce `proposed` memories that are never recalled until approved.
 */
import type { Fix } from '../core/types.js';
import type { Store } from '../store/store.js';
import type { Abstractor, Clock, Embedder, Logger, Redactor } from './ports.js';

export interface LearnDeps {
  store: Store;
  abstractor: Abstractor;
  embedder?: Embedder;
  redactor: Redactor;
  logger: Logger;
  clock: Clock;
}

export interface LearnOptions {
  /** new insights of trusted fixes start as `proposed` too (review: dashboard|comment) */
  requireReview?: boolean;
  /** learn again even if this fix was learned before */
  force?: boolean;
}

export interface LearnResult {
  repo: string;
  ref: string;
  skipped?: 'already-learned';
  /** ids of memories created */
  created: string[];
  /** ids of existing insights strengthened by this fix */
  merged: string[];
  /** would-be insights refused by the specificity check or the screen */
  rejected: { title: string; reason: string }[];
}

export interface LearnSummary {
  fixes: number;
  skipped: number;
  created: number;
  merged: number;
  rejected: number;
}

export declare function learnFix(deps: LearnDeps, fix: Fix, options?: LearnOptions): Promise<LearnResult>;

export declare function learnFixes(
  deps: LearnDeps,
  fixes: AsyncIterable<Fix> | Iterable<Fix>,
  options?: LearnOptions & { onProgress?: (done: number, total?: number) => void },
): Promise<LearnSummary>;
