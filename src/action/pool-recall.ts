/**
 * Pool-file mode: rank a JSONL export (`memory-transfer export`) locally with the same core code
 * as the server (in-memory index, visibility rule), for teams without a server.
 */
import { readFile } from 'node:fs/promises';
import { InputError } from '../core/errors.js';
import type { IndexEntry, LexicalStats } from '../core/retrieval/memory-index.js';
import { PoolLineError } from '../core/retrieval/pool-file.js';
import { toInjectedInsights, type InjectedInsight } from '../core/rendering/render-injection.js';
import type { Memory, MemoryLevel, RecallHit, Requester, TaskKind } from '../core/types.js';
import { mayServeLevel } from '../core/visibility.js';
import type { WithheldInsights } from '../core/rendering/withheld.js';
import { withheldInsights } from '../services/withheld.js';
import { DEFAULT_ALLOWED_HOSTS, type ScreenResult } from '../security/screen.js';
import { screenPoolMemory } from '../services/pool-screen.js';
import type { Logger, TaskReader } from '../ports/index.js';
import { resolveInWorkspace } from './workspace-path.js';

/**
 * Parses an export (plain or gzip-compressed bytes); throws InputError naming what is wrong.
 * `terms`: the memories' lexical statistics when the file carries usable ones (ParsedPool).
 */
export type PoolParser = (bytes: Uint8Array) => {
  header: { tenant: string };
  /** every memory line, each memory read when first asked for */
  entries: IndexEntry[];
  terms?: LexicalStats;
  termsUnused?: string;
};

/**
 * Ranks the memories the requester may see for the task (the engine's in-memory recall). The
 * same list may come again (an index built over it can be kept); `stats` are its lexical
 * statistics when they were counted ahead.
 */
export type LocalRecall = (
  entries: readonly IndexEntry[],
  requester: Requester,
  task: string,
  options: {
    k: number;
    level: MemoryLevel;
    minScore?: number;
    stats?: LexicalStats;
    /** a memory recall may rank at all (the screen): one refused never folds into another */
    admit?: (memory: Memory) => boolean;
    /** reads the task by a model (absent: the rules read it) */
    taskReader?: TaskReader;
  },
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
  /** reads the task by a model (model-api-key; absent: the rules read it) */
  taskReader?: TaskReader;
}

/**
 * Relevant insights this repository may not see: their sources are more private than it (a pool
 * learned as private read by a public repository). Only ids and a count: never their text.
 */
export type { WithheldInsights } from '../core/rendering/withheld.js';

export interface PoolRecallResult {
  insights: InjectedInsight[];
  withheld?: WithheldInsights;
  /** why the file could not serve this repository at all (another organization's file) */
  refusal?: string;
  /** what kind of task the model read the task as (absent: no model, or it could not read it) */
  taskKind?: TaskKind;
}

export async function recallFromPool(options: PoolRecallOptions): Promise<PoolRecallResult> {
  const file = resolveInWorkspace(options.workspace, options.pool, 'pool');
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      `pool: cannot read "${options.pool}" (${code ?? 'error'}); check the path (relative to the workspace)`,
    );
  }
  let parsed: ReturnType<PoolParser>;
  try {
    parsed = options.parsePool(bytes);
  } catch (error) {
    throw notAnExport(options.pool, error);
  }
  const {
    entries,
    header: { tenant },
  } = parsed;
  if (tenant !== options.requester.tenant) {
    const refusal = `the pool file belongs to "${tenant}" but this repository is in "${options.requester.tenant}"; insights never cross organizations, so none will be injected (to use it here, export it for this organization: memory-transfer export --for-action --for-org ${options.requester.tenant})`;
    options.logger.warn(`Memory Transfer: ${refusal}`);
    return { insights: [], refusal };
  }
  // only active memories are injected from a pool file: proposed, rejected and archived never.
  // Only the requested level is indexed, as the stores index each level on its own (an export
  // holds four levels per fix: this also makes the in-memory index four times smaller).
  const requester: Requester = { ...options.requester, statuses: ['active'] };
  // a concrete level (summary, workflow, trajectory) is indexed only when it came from this very
  // repository, even if the file carries other repositories' (docs/security.md)
  // (an insight may be served anywhere: its memory need not be read to know it)
  const active = entries.filter(
    (entry) =>
      entry.status === 'active' &&
      entry.level === options.level &&
      (entry.level === 'insight' || mayServeLevel(entry.memory(), options.requester)),
  );
  // the terms counted at export describe every memory of the file: they serve when all are indexed
  const stats = active.length === entries.length ? parsed.terms : undefined;
  if (parsed.termsUnused && active.length === entries.length)
    options.logger.info(`Memory Transfer: the pool file's term counts are not used (${parsed.termsUnused})`);
  try {
    const hits = await screenedRecall(active, requester, options, stats);
    const insights = toInjectedInsights(hits, requester, options.githubUrl);
    const withheld = await withheldFrom(active, requester, hits, options, stats);
    // the model's reading was kept by the reader when recall asked it: no second call
    const taskKind = (await options.taskReader?.read(options.task))?.taskKind;
    return { insights, ...(withheld ? { withheld } : {}), ...(taskKind ? { taskKind } : {}) };
  } catch (error) {
    // a line of a file indexed at export is read when recall first asks for its memory
    if (error instanceof PoolLineError) throw notAnExport(options.pool, error);
    throw error;
  }
}

function notAnExport(pool: string, error: unknown): InputError {
  const reason = error instanceof Error ? error.message : String(error);
  return new InputError(`pool: "${pool}" is not a valid Memory Transfer export: ${reason}`);
}

/**
 * The relevant insights a reader of this repository's visibility may not see, named by id (the
 * file is the organization's own); a memory failing the insight screen is never injected anywhere,
 * so it is not worth sharing and not named.
 */
function withheldFrom(
  entries: readonly IndexEntry[],
  requester: Requester,
  recalled: RecallHit[],
  options: PoolRecallOptions,
  stats: LexicalStats | undefined,
): Promise<WithheldInsights | undefined> {
  const allowedHosts = [...DEFAULT_ALLOWED_HOSTS, hostOf(options.githubUrl)];
  return withheldInsights(requester, recalled, {
    k: options.k,
    nameIds: true,
    recallAsPrivate: (wider) =>
      options.recallLocal(entries, wider, options.task, {
        k: options.k,
        level: options.level,
        ...(options.minScore !== undefined ? { minScore: options.minScore } : {}),
        ...(stats ? { stats } : {}),
        ...(options.taskReader ? { taskReader: options.taskReader } : {}),
      }),
    keep: (memory) => screenPoolMemory(memory, { allowedHosts }).ok,
  });
}

/** After this many recall rounds that surfaced a memory failing the screen, the whole pool is screened. */
const SCREEN_ROUNDS = 3;

/**
 * Recall where nothing that fails the insight screen can come out. A pool file did not come
 * through learn (it may have been edited by hand), so every memory is screened before it is
 * injected; a failing one is dropped with a warning naming its id, and recall runs again without
 * it. Screening costs ~0.15 ms a memory (more on first use), so only the hits are screened, not
 * the whole pool (a pool full of hostile memories ends with one screening of all of it).
 */
async function screenedRecall(
  entries: readonly IndexEntry[],
  requester: Requester,
  options: PoolRecallOptions,
  stats: LexicalStats | undefined,
): Promise<RecallHit[]> {
  const allowedHosts = [...DEFAULT_ALLOWED_HOSTS, hostOf(options.githubUrl)];
  const verdicts = new Map<string, ScreenResult>();
  const passes = (memory: Memory): boolean => {
    let verdict = verdicts.get(memory.id);
    if (!verdict) {
      verdict = screenPoolMemory(memory, { allowedHosts });
      verdicts.set(memory.id, verdict);
      if (!verdict.ok) {
        options.logger.warn(
          `Memory Transfer: memory ${memory.id} in the pool file fails the insight screen (${verdict.reason ?? 'refused'}); it is dropped, never injected`,
        );
      }
    }
    return verdict.ok;
  };
  let pool = entries;
  for (let round = 0; ; round += 1) {
    if (round === SCREEN_ROUNDS) pool = pool.filter((entry) => passes(entry.memory()));
    // the counts describe the whole list: a list with memories dropped is counted again
    const hits = await options.recallLocal(pool, requester, options.task, {
      k: options.k,
      level: options.level,
      admit: passes,
      ...(options.minScore !== undefined ? { minScore: options.minScore } : {}),
      ...(stats && pool === entries ? { stats } : {}),
      ...(options.taskReader ? { taskReader: options.taskReader } : {}),
    });
    const failing = new Set(hits.filter((hit) => !passes(hit.memory)).map((hit) => hit.memory.id));
    if (failing.size === 0) return hits;
    pool = pool.filter((entry) => !failing.has(entry.id));
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'github.com';
  }
}
