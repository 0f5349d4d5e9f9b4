/**
 * The relevant insights a reader in a repository was not given because their sources are more
 * private than it: what a private repository of the organization would have been given, less
 * what this one was. One computation for every reader (CLI, MCP, Action, recall API, comments).
 */
import { MAX_WITHHELD_IDS, type WithheldInsights } from '../core/rendering/withheld.js';
import type { Memory, RecallHit, Requester } from '../core/types.js';

export interface WithheldOptions {
  /** how many the reader asked for: with as many shown, nothing is missing */
  k: number;
  /** the same recall as the reader's, as a private reader of the same repository */
  recallAsPrivate: (requester: Requester) => Promise<RecallHit[]>;
  /** name their ids (the pool's own reader), or give a count only (the App, to a repository) */
  nameIds: boolean;
  /** only memories that could be served at all count (a pool file's screen) */
  keep?: (memory: Memory) => boolean;
}

export async function withheldInsights(
  requester: Requester,
  shown: readonly RecallHit[],
  options: WithheldOptions,
): Promise<WithheldInsights | undefined> {
  // a local admin (no repository, no visibility) sees everything; a private reader, all there is
  if (requester.repo === undefined && requester.visibility === undefined) return undefined;
  const visibility = requester.visibility ?? 'public';
  if (visibility === 'private' || shown.length >= options.k) return undefined;
  const seen = new Set(shown.map((hit) => hit.memory.id));
  const wider = await options.recallAsPrivate({ ...requester, visibility: 'private' });
  const keep = options.keep ?? (() => true);
  const ids = wider.filter((hit) => !seen.has(hit.memory.id) && keep(hit.memory)).map((hit) => hit.memory.id);
  if (ids.length === 0) return undefined;
  return { count: ids.length, ids: options.nameIds ? ids.slice(0, MAX_WITHHELD_IDS) : [], visibility };
}
