/**
 * governance: how maintainers and evidence steer the pool. Approve, reject, forget, archive,
 * restore, share wider, votes and outcomes, revoking a source, following a repository's
 * visibility, and the staleness sweep. Every change of standing is written to the audit log in
 * the same transaction as the change itself.
 */
import { InputError, NotFoundError } from '../core/errors.js';
import type { AuditEntry, Memory, MemoryStatus, Provenance, Visibility } from '../core/types.js';
import { MEMORY_STATUSES } from '../core/types.js';
import { flowsTo, mostPrivate } from '../core/visibility.js';
import { redactKnownPatterns } from '../security/redact.js';
import { screenInsightText } from '../security/screen.js';
import type { Store } from '../store/store.js';

/** Who does it and when. `now` defaults to the current time. */
export interface Actor {
  /** a GitHub login, or "system:<what>" for automatic changes */
  actor: string;
  /** a short reason, kept in the audit log (never memory content) */
  detail?: string;
  now?: Date;
}

export const STALENESS_ACTOR = 'system:staleness';
export const FEEDBACK_ACTOR = 'system:feedback';
export const DEFAULT_STALE_DAYS = 90;

const ALL_STATUSES: MemoryStatus[] = [...MEMORY_STATUSES];
const PAGE = 500;

function iso(now: Date | undefined): string {
  return (now ?? new Date()).toISOString();
}

async function mustGet(store: Store, tenant: string, id: string): Promise<Memory> {
  const memory = await store.getMemory(tenant, id);
  if (!memory) throw new NotFoundError(`no memory ${id} in the pool of ${tenant}`);
  return memory;
}

/** Appends an audit entry; a detail (often typed by a person) is capped and cleared of secrets. */
async function audit(store: Store, entry: Omit<AuditEntry, 'at'>, at: string): Promise<void> {
  const detail = entry.detail ? redactKnownPatterns(entry.detail.slice(0, 500)) : undefined;
  await store.appendAudit({ ...entry, actor: redactKnownPatterns(entry.actor), ...(detail ? { detail } : {}), at });
}

/** Sets a status with its audit entry; no-op (and no entry) when it already has that status. */
async function setStatus(
  store: Store,
  tenant: string,
  id: string,
  status: MemoryStatus,
  action: AuditEntry['action'],
  by: Actor,
  from?: MemoryStatus[],
): Promise<Memory> {
  return store.tenantTransaction(tenant, async () => {
    const memory = await mustGet(store, tenant, id);
    if (memory.status === status) return memory;
    if (from && !from.includes(memory.status)) {
      throw new InputError(`memory ${id} is ${memory.status}, not ${from.join(' or ')}`);
    }
    const at = iso(by.now);
    const next: Memory = { ...memory, status, updatedAt: at };
    await store.putMemory(next);
    await audit(
      store,
      { tenant, actor: by.actor, action, memoryId: id, ...(by.detail ? { detail: by.detail } : {}) },
      at,
    );
    return next;
  });
}

/** proposed (or rejected) → active: it may now be recalled. */
export function approve(store: Store, tenant: string, id: string, by: Actor): Promise<Memory> {
  return setStatus(store, tenant, id, 'active', 'approve', by);
}

/** → rejected: never recalled, kept so that the same text is not proposed again. */
export function reject(store: Store, tenant: string, id: string, by: Actor): Promise<Memory> {
  return setStatus(store, tenant, id, 'rejected', 'reject', by);
}

/** → archived: kept, not recalled; `restore` puts it back. */
export function archive(store: Store, tenant: string, id: string, by: Actor): Promise<Memory> {
  return setStatus(store, tenant, id, 'archived', 'archive', by);
}

/**
 * archived (or rejected) → active. The evidence counted so far is remembered, so only evidence
 * after the restore can archive it again, and the staleness clock restarts.
 */
export async function restore(store: Store, tenant: string, id: string, by: Actor): Promise<Memory> {
  return store.tenantTransaction(tenant, async () => {
    const memory = await setStatus(store, tenant, id, 'active', 'restore', by, ['archived', 'rejected', 'active']);
    const baseline: RestoreBaseline = { at: iso(by.now), votes: memory.votes, outcomes: memory.outcomes };
    await store.setState(restoreKey(tenant, id), JSON.stringify(baseline));
    return memory;
  });
}

/**
 * Removes the memory everywhere: its row, full-text entry and vector (the store does all three),
 * then has the store purge deleted data from its files, so the text cannot be recovered.
 */
export async function forget(store: Store, tenant: string, id: string, by: Actor): Promise<void> {
  await store.tenantTransaction(tenant, async () => {
    await mustGet(store, tenant, id);
    await store.deleteMemory(tenant, id);
    await audit(
      store,
      { tenant, actor: by.actor, action: 'forget', memoryId: id, ...(by.detail ? { detail: by.detail } : {}) },
      iso(by.now),
    );
  });
  await store.purgeDeleted?.();
}

/** An admin lets the memory be shown in repositories less private than its sources (same org only). */
export async function shareWider(store: Store, tenant: string, id: string, by: Actor): Promise<Memory> {
  return store.tenantTransaction(tenant, async () => {
    const memory = await mustGet(store, tenant, id);
    if (memory.sharedWiderBy) return memory;
    const at = iso(by.now);
    const next: Memory = { ...memory, sharedWiderBy: by.actor, updatedAt: at };
    await store.putMemory(next);
    await audit(
      store,
      {
        tenant,
        actor: by.actor,
        action: 'share',
        memoryId: id,
        detail: by.detail ?? `shared wider than ${memory.visibility}`,
      },
      at,
    );
    return next;
  });
}

/** What a maintainer may edit: the texts, and the tags. */
export interface MemoryEdit {
  title?: string;
  description?: string;
  content?: string;
  /** the memory's tags, all of them (labels for people: each without spaces, at most MAX_TAG_LENGTH characters) */
  tags?: string[];
}

const EDITABLE = ['title', 'description', 'content'] as const;

/** At most this many tags on an edited memory, each at most MAX_TAG_LENGTH characters. */
export const MAX_TAGS = 40;
export const MAX_TAG_LENGTH = 100;

/** Tags as given, trimmed and each once; InputError naming the first that is not a tag. */
function editedTags(tags: readonly string[]): string[] {
  const clean = [...new Set(tags.map((tag) => tag.trim()))].filter((tag) => tag !== '');
  if (clean.length > MAX_TAGS) throw new InputError(`tags: at most ${MAX_TAGS} tags, got ${clean.length}`);
  for (const tag of clean) {
    if (/\s/.test(tag) || tag.length > MAX_TAG_LENGTH)
      throw new InputError(
        `tags: ${JSON.stringify(tag.slice(0, 120))} is not a tag (no spaces, at most ${MAX_TAG_LENGTH} characters)`,
      );
  }
  return clean;
}

/**
 * A maintainer rewrites a memory's title, description or content (an insight's body follows), or
 * its tags. The texts must pass the insight screen, as a freshly learned one does (the
 * specificity check is left out: a person chose the words); else InputError with the screen's
 * reason and nothing changes. Audited as 'edit', naming the fields, never their text. No-op when
 * nothing differs.
 *
 * What a memory teaches (its identity: `lesson`, `routines`, `facet`, `examples`, `writer`) is
 * not edited here. Tags are labels for people: editing `lesson:…`, `routine:…` or `facet:…` tags
 * changes what search and display show, not what learn merges or recall ranks by. An edited
 * content is shown as written; when a later fix of the same lesson merges in, the content is
 * rendered again: its advice (the edited text, without its closing "Seen in: …." sentence if that
 * still lists the examples as they are) followed by the memory's examples (insight-text adviceOf).
 */
export async function edit(store: Store, tenant: string, id: string, changes: MemoryEdit, by: Actor): Promise<Memory> {
  return store.tenantTransaction(tenant, async () => {
    const memory = await mustGet(store, tenant, id);
    const fields: string[] = EDITABLE.filter(
      (field) => changes[field] !== undefined && changes[field] !== memory[field],
    );
    const tags = changes.tags === undefined ? memory.tags : editedTags(changes.tags);
    if (JSON.stringify(tags) !== JSON.stringify(memory.tags)) fields.push('tags');
    if (fields.length === 0) return memory;
    const text = { title: memory.title, description: memory.description, content: memory.content };
    for (const field of EDITABLE) {
      if (!fields.includes(field)) continue;
      const value = changes[field]?.trim() ?? '';
      if (value === '') throw new InputError(`${field}: must not be empty`);
      text[field] = value;
    }
    // the texts as edited are screened (an edit of the tags alone shows no new text)
    const texts = EDITABLE.some((field) => fields.includes(field));
    const screen = texts ? screenInsightText([text.title, text.description, text.content].join('\n')) : { ok: true };
    if (!screen.ok) throw new InputError(`the edited text fails the insight screen (${screen.reason ?? 'refused'})`);
    const at = iso(by.now);
    const body: Memory['body'] =
      texts && memory.body.level === 'insight' ? { level: 'insight', insight: { ...text } } : memory.body;
    const next: Memory = { ...memory, ...text, tags, body, updatedAt: at };
    await store.putMemory(next);
    await audit(
      store,
      {
        tenant,
        actor: by.actor,
        action: 'edit',
        memoryId: id,
        detail: `${by.detail ? `${by.detail}: ` : ''}edited ${fields.join(', ')}`,
      },
      at,
    );
    return next;
  });
}

// ---------------------------------------------------------------------------------------------
// feedback

interface RestoreBaseline {
  at: string;
  votes: Memory['votes'];
  outcomes: Memory['outcomes'];
}

function restoreKey(tenant: string, id: string): string {
  return `governance:restored:${tenant}:${id}`;
}

function voteKey(tenant: string, id: string, actor: string): string {
  return `governance:vote:${tenant}:${id}:${actor.toLowerCase()}`;
}

async function readBaseline(store: Store, tenant: string, id: string): Promise<RestoreBaseline | undefined> {
  const raw = await store.getState(restoreKey(tenant, id));
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as RestoreBaseline;
  } catch {
    return undefined;
  }
}

/**
 * The rule for evidence against an insight (counted since its last restore, if any):
 * - down-votes: at least 3, and more than twice the up-votes;
 * - outcomes: at least 3 failed runs that used it, and a failure rate above 70 %.
 * Returns the reason to archive, or undefined. (Rank is lowered continuously by the engine's
 * quality prior, which weighs the same votes and outcomes.)
 */
export function evidenceAgainst(
  memory: Pick<Memory, 'votes' | 'outcomes'>,
  baseline?: Pick<RestoreBaseline, 'votes' | 'outcomes'>,
): string | undefined {
  const up = memory.votes.up - (baseline?.votes.up ?? 0);
  const down = memory.votes.down - (baseline?.votes.down ?? 0);
  const success = memory.outcomes.success - (baseline?.outcomes.success ?? 0);
  const failure = memory.outcomes.failure - (baseline?.outcomes.failure ?? 0);
  if (down >= 3 && down > 2 * up) return `down-voted: ${down} down, ${up} up`;
  if (failure >= 3 && failure / (success + failure) > 0.7) return `failed runs: ${failure} of ${success + failure}`;
  return undefined;
}

/** Archives an active memory when the evidence against it clearly outweighs (see evidenceAgainst). */
export async function applyFeedback(
  store: Store,
  tenant: string,
  id: string,
  by: Partial<Actor> = {},
): Promise<Memory> {
  return store.tenantTransaction(tenant, async () => {
    const memory = await mustGet(store, tenant, id);
    if (memory.status !== 'active') return memory;
    const reason = evidenceAgainst(memory, await readBaseline(store, tenant, id));
    if (!reason) return memory;
    return archive(store, tenant, id, {
      actor: by.actor ?? FEEDBACK_ACTOR,
      detail: reason,
      ...(by.now ? { now: by.now } : {}),
    });
  });
}

/**
 * A person's vote on a memory, as stored: its direction, and the places (threads) whose reaction
 * backs it. A vote stored by an earlier version is a bare direction, backed by no known place.
 */
interface StoredVote {
  direction: 'up' | 'down' | 'withdrawn' | undefined;
  sources: string[];
}

async function readVote(store: Store, tenant: string, id: string, actor: string): Promise<StoredVote> {
  const raw = await store.getState(voteKey(tenant, id, actor));
  if (raw === undefined) return { direction: undefined, sources: [] };
  if (raw === 'up' || raw === 'down' || raw === 'withdrawn') return { direction: raw, sources: [] };
  try {
    const parsed = JSON.parse(raw) as Partial<StoredVote>;
    const direction = parsed.direction === 'up' || parsed.direction === 'down' ? parsed.direction : 'withdrawn';
    const sources = Array.isArray(parsed.sources) ? parsed.sources.filter((s) => typeof s === 'string') : [];
    return { direction, sources };
  } catch {
    return { direction: undefined, sources: [] };
  }
}

function writeVote(store: Store, tenant: string, id: string, actor: string, vote: StoredVote): Promise<void> {
  return store.setState(voteKey(tenant, id, actor), JSON.stringify(vote));
}

/**
 * One 👍 (up) or 👎 (down) from a person. Each person counts once per memory: voting again the
 * same way changes nothing (but for remembering `source`, the thread whose reaction it is), voting
 * the other way moves the vote. Then the feedback rule runs.
 */
export async function vote(
  store: Store,
  tenant: string,
  id: string,
  direction: 'up' | 'down',
  by: Actor,
  source?: string,
): Promise<Memory> {
  return store.tenantTransaction(tenant, async () => {
    const memory = await mustGet(store, tenant, id);
    const previous = await readVote(store, tenant, id, by.actor);
    if (previous.direction === direction) {
      if (source !== undefined && !previous.sources.includes(source)) {
        await writeVote(store, tenant, id, by.actor, { direction, sources: [...previous.sources, source] });
      }
      return memory;
    }
    return moveVote(store, memory, previous.direction, direction, by, source === undefined ? [] : [source]);
  });
}

/**
 * A person takes back their 👍 or 👎 (they removed the reaction in `source`): their vote on the
 * memory goes, if it is still that one (voting the other way since has moved it already) and no
 * other thread's reaction of theirs backs it. Then the feedback rule runs. Nothing happens to a
 * memory that is gone.
 */
export async function withdrawVote(
  store: Store,
  tenant: string,
  id: string,
  direction: 'up' | 'down',
  by: Actor,
  source?: string,
): Promise<Memory | undefined> {
  return store.tenantTransaction(tenant, async () => {
    const memory = await store.getMemory(tenant, id);
    if (!memory) return undefined;
    const previous = await readVote(store, tenant, id, by.actor);
    if (previous.direction !== direction) return memory;
    const backing = previous.sources.filter((s) => s !== source);
    if (source !== undefined && backing.length > 0) {
      await writeVote(store, tenant, id, by.actor, { direction, sources: backing });
      return memory;
    }
    return moveVote(store, memory, previous.direction, 'none', by, []);
  });
}

/** A person's vote on the memory goes from `previous` (as stored) to `next`; then the feedback rule runs. */
async function moveVote(
  store: Store,
  memory: Memory,
  previous: StoredVote['direction'],
  next: 'up' | 'down' | 'none',
  by: Actor,
  sources: string[],
): Promise<Memory> {
  const votes = { ...memory.votes };
  if (previous === 'up' || previous === 'down') votes[previous] = Math.max(0, votes[previous] - 1);
  if (next !== 'none') votes[next] += 1;
  await store.putMemory({ ...memory, votes, updatedAt: iso(by.now) });
  await writeVote(store, memory.tenant, memory.id, by.actor, {
    direction: next === 'none' ? 'withdrawn' : next,
    sources,
  });
  return applyFeedback(store, memory.tenant, memory.id, { ...(by.now ? { now: by.now } : {}) });
}

/** The outcome of a run that used the memory; then the feedback rule runs. */
export async function recordOutcome(
  store: Store,
  tenant: string,
  id: string,
  outcome: 'success' | 'failure',
  by: Partial<Actor> = {},
): Promise<Memory> {
  return store.tenantTransaction(tenant, async () => {
    const memory = await mustGet(store, tenant, id);
    const outcomes = { ...memory.outcomes, [outcome]: memory.outcomes[outcome] + 1 };
    await store.putMemory({ ...memory, outcomes, updatedAt: iso(by.now) });
    return applyFeedback(store, tenant, id, by);
  });
}

// ---------------------------------------------------------------------------------------------
// sources and repositories

async function memoriesFromRepo(store: Store, tenant: string, repo: string): Promise<Memory[]> {
  const out: Memory[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.listMemories(tenant, { repo, status: ALL_STATUSES, limit: PAGE, offset });
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

function sameRepo(entry: Provenance, repo: string, repoId?: number): boolean {
  if (repoId !== undefined && entry.repoId !== undefined) return entry.repoId === repoId;
  return entry.repo.toLowerCase() === repo.toLowerCase();
}

export interface RevokeResult {
  /** memories learned only from the source: deleted */
  removed: string[];
  /** memories merged with other sources: the source stripped from their provenance */
  stripped: string[];
}

/**
 * Revokes what was learned from a repository (or one PR/issue/commit of it): memories learned
 * only from it are deleted; merged ones lose that provenance entry (support decremented,
 * visibility recomputed as the most private of what remains); the fix is no longer marked
 * learned. One audit entry per memory touched.
 */
export async function revokeSource(
  store: Store,
  tenant: string,
  repo: string,
  ref?: string,
  by: Actor & { repoId?: number } = { actor: 'system:revoke' },
): Promise<RevokeResult> {
  const result: RevokeResult = { removed: [], stripped: [] };
  const at = iso(by.now);
  const source = ref === undefined ? repo : `${repo}#${ref}`;
  await store.tenantTransaction(tenant, async () => {
    for (const memory of await memoriesFromRepo(store, tenant, repo)) {
      const revoked = (p: Provenance) => sameRepo(p, repo, by.repoId) && (ref === undefined || p.ref === ref);
      const rest = memory.provenance.filter((p) => !revoked(p));
      if (rest.length === memory.provenance.length) continue;
      const detail = `${by.detail ? `${by.detail}: ` : ''}source ${source} revoked`;
      const removed = rest.length === 0;
      if (removed) {
        await store.deleteMemory(tenant, memory.id);
      } else {
        const support = Math.max(1, memory.support - (memory.provenance.length - rest.length));
        const visibility = mostPrivate(rest.map((p) => p.visibility));
        await store.putMemory({ ...memory, provenance: rest, support, visibility, updatedAt: at });
      }
      (removed ? result.removed : result.stripped).push(memory.id);
      await audit(
        store,
        {
          tenant,
          actor: by.actor,
          action: 'revoke-source',
          memoryId: memory.id,
          detail: `${detail}, ${removed ? 'memory removed' : 'provenance stripped'}`,
        },
        at,
      );
    }
    await store.unmarkFix(tenant, repo, ref);
  });
  if (result.removed.length > 0) await store.purgeDeleted?.();
  return result;
}

/**
 * A repository's visibility changed. Memories learned from it become at least as private as the
 * repository now is (and an earlier "share wider" is withdrawn, since it was granted for a less
 * private source). A repository made less private widens nothing: what was learned while it was
 * private stays private until an admin shares it wider. Returns the ids of memories changed.
 */
export async function updateRepoVisibility(
  store: Store,
  tenant: string,
  repo: string,
  visibility: Visibility,
  by: Partial<Actor> & { repoId?: number } = {},
): Promise<string[]> {
  const changed: string[] = [];
  const at = iso(by.now);
  await store.tenantTransaction(tenant, async () => {
    for (const memory of await memoriesFromRepo(store, tenant, repo)) {
      const provenance = memory.provenance.map((p) =>
        sameRepo(p, repo, by.repoId) && !flowsTo(visibility, p.visibility) ? { ...p, visibility } : p,
      );
      const next = mostPrivate([memory.visibility, ...provenance.map((p) => p.visibility)]);
      if (next === memory.visibility && provenance.every((p, i) => p === memory.provenance[i])) continue;
      const tightened = next !== memory.visibility;
      const { sharedWiderBy, ...rest } = memory;
      const unshare = tightened && sharedWiderBy !== undefined;
      await store.putMemory({ ...(unshare ? rest : memory), provenance, visibility: next, updatedAt: at });
      changed.push(memory.id);
      if (tightened) {
        await audit(
          store,
          {
            tenant,
            actor: by.actor ?? 'system:repository',
            action: 'edit',
            memoryId: memory.id,
            detail: `${repo} is now ${visibility}: memory visibility ${memory.visibility} → ${next}${unshare ? ', share-wider withdrawn' : ''}`,
          },
          at,
        );
      }
    }
  });
  return changed;
}

// ---------------------------------------------------------------------------------------------
// staleness

export interface StaleOptions {
  /** unused for this many days (default 90) */
  days?: number;
  now?: Date;
  actor?: string;
}

/** The active memories `archiveStale` would archive now (nothing is changed). */
export async function findStale(store: Store, tenant: string, options: StaleOptions = {}): Promise<Memory[]> {
  const days = options.days ?? DEFAULT_STALE_DAYS;
  const now = options.now ?? new Date();
  const cutoff = now.getTime() - days * 86_400_000;
  const candidates: Memory[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.listMemories(tenant, { status: ['active'], limit: PAGE, offset });
    candidates.push(...page);
    if (page.length < PAGE) break;
  }
  const stale: Memory[] = [];
  for (const memory of candidates) {
    if (memory.votes.up > 0) continue;
    const restored = await readBaseline(store, tenant, memory.id);
    const times = [memory.lastUsedAt, memory.createdAt, restored?.at].map((t) => (t ? Date.parse(t) : 0));
    if (Math.max(...times.filter(Number.isFinite)) <= cutoff) stale.push(memory);
  }
  return stale;
}

/**
 * Archives every active memory unused for `days` (last use, else creation, else its last restore)
 * and never up-voted. Archived, not deleted; each one audited. Returns the ids archived.
 */
export async function archiveStale(store: Store, tenant: string, options: StaleOptions = {}): Promise<string[]> {
  const days = options.days ?? DEFAULT_STALE_DAYS;
  const now = options.now ?? new Date();
  const archived: string[] = [];
  for (const memory of await findStale(store, tenant, { days, now })) {
    await archive(store, tenant, memory.id, {
      actor: options.actor ?? STALENESS_ACTOR,
      detail: `stale: unused for ${days} days and never up-voted`,
      now,
    });
    archived.push(memory.id);
  }
  return archived;
}
