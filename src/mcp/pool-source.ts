/**
 * The MCP tools over a pool read as one requester: the CLI's pool (SQLite or PostgreSQL), a pool
 * file (read-only), or the App's store for a verified run (src/app/http/mcp-endpoint.ts). Recall
 * is the engine's recall; what may be seen is decided by core/visibility.ts (maySee for the
 * insights, mayLinkSource for naming where they were learned), as for every other reader.
 */
import { AGENT_TASK_KINDS } from '../core/retrieval/task-kind.js';
import { sourceUrl } from '../core/rendering/comment-render.js';
import { AuthError, InputError, NotFoundError } from '../core/errors.js';
import { qualityPrior } from '../core/retrieval/ranking.js';
import { toInjectedInsights } from '../core/rendering/render-injection.js';
import type { Memory, RecallHit, Requester, Visibility } from '../core/types.js';
import { DEFAULT_REPO_VISIBILITY, mayLinkSource, maySee } from '../core/visibility.js';
import { recordAgentReport, type AgentReportDeps } from '../services/agent-report.js';
import { recall, taskKindFor, type RecallDeps } from '../services/recall.js';
import { withheldInsights } from '../services/withheld.js';
import type { InsightSource, OutcomeQuery, RecallQuery } from './insight-source.js';
import type { OutcomeReport, RecalledInsight, ShownInsight } from './tools.js';

/** The repository a server answers for: the caller reads with its visibility. */
export interface BoundRepository {
  repo: string;
  repoId?: number;
  visibility: Visibility;
}

export interface PoolVoting {
  deps: AgentReportDeps;
  /** the workflow run (or local session) whose reports count once per insight */
  runId: string;
  /** undefined when this run may vote; otherwise why not (a fork's or an outsider's run) */
  mayVote(): Promise<string | undefined>;
}

export interface PoolSourceOptions {
  label: string;
  recallDeps: RecallDeps;
  tenant: string;
  /** absent: a local admin, who may name any repository in the `repo` argument */
  bound?: BoundRepository;
  /** the visibility a `repo` argument reads with on an unbound server (default private, as `recall --repo`) */
  unboundVisibility?: Visibility;
  githubUrl?: string;
  /** the candidates of the top resource (active insights of the tenant) */
  list(): Promise<Memory[]>;
  /** absent: read-only (a pool file) */
  voting?: PoolVoting;
  /** a memory that fails it is never served (pool files did not come through learn) */
  screen?: (memory: Memory) => boolean;
  /** name the ids of withheld insights (default: the pool's own reader); the App gives a count only */
  nameWithheld?: boolean;
}

function sameRepo(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export function createPoolSource(options: PoolSourceOptions): InsightSource {
  const { tenant, bound } = options;
  const githubUrl = options.githubUrl ?? 'https://github.com';
  const passes = (memory: Memory) => options.screen?.(memory) ?? true;

  function requesterFor(repo: string | undefined): Requester {
    if (bound) {
      if (repo !== undefined && !sameRepo(repo, bound.repo)) {
        throw new InputError(
          `repo: this server answers for ${bound.repo} only; leave "repo" out or give "${bound.repo}"`,
        );
      }
      return {
        tenant,
        repo: bound.repo,
        ...(bound.repoId !== undefined ? { repoId: bound.repoId } : {}),
        visibility: bound.visibility,
      };
    }
    if (repo === undefined) return { tenant };
    return { tenant, repo, visibility: options.unboundVisibility ?? DEFAULT_REPO_VISIBILITY };
  }

  function toRecalled(hits: RecallHit[], requester: Requester): RecalledInsight[] {
    const injected = toInjectedInsights(hits, requester, githubUrl);
    return injected.map((item, i) => {
      const { lexical, vector, routine, prior } = (hits[i] as RecallHit).parts;
      return { ...item, parts: { lexical, vector, routine, prior } };
    });
  }

  return {
    label: options.label,

    async recall(query: RecallQuery) {
      const requester = requesterFor(query.repo);
      const level = query.level ?? 'insight';
      const k = query.k ?? 3;
      const recallOptions = {
        k,
        level,
        taskKinds: AGENT_TASK_KINDS,
        // only insights transfer; the concrete levels stay in their own repository
        ...(level !== 'insight' && requester.repo ? { onlyRepo: requester.repo } : {}),
      };
      const hits = (await recall(options.recallDeps, requester, query.task, recallOptions)).filter((hit) =>
        passes(hit.memory),
      );
      const withheld = await withheldInsights(requester, hits, {
        k,
        nameIds: options.nameWithheld ?? true,
        recallAsPrivate: (wider) => recall(options.recallDeps, wider, query.task, recallOptions),
        keep: passes,
      });
      return {
        insights: toRecalled(hits, requester),
        ...(withheld ? { withheld } : {}),
        taskKind: await taskKindFor(options.recallDeps, query.task),
      };
    },

    async show(id: string): Promise<ShownInsight> {
      const requester = requesterFor(undefined);
      const [memory] = await options.recallDeps.store.getMemories(tenant, [id]);
      if (!memory || !maySee(memory, requester) || !passes(memory)) {
        throw new NotFoundError(`no insight "${id}" that this repository may see: use an id returned by recall`);
      }
      const visible = memory.provenance.filter((p) => mayLinkSource(p, requester));
      return {
        id: memory.id,
        level: memory.level,
        title: memory.title,
        description: memory.description,
        content: memory.content,
        tags: memory.tags,
        lesson: memory.lesson,
        routines: memory.routines,
        facet: memory.facet,
        examples: memory.examples,
        writer: memory.writer,
        evidence: memory.evidence,
        support: memory.support,
        votes: { up: memory.votes.up, down: memory.votes.down },
        outcomes: { success: memory.outcomes.success, failure: memory.outcomes.failure },
        sources: visible.map((p) => {
          const url = sourceUrl(githubUrl, p);
          return { repo: p.repo, kind: p.sourceKind, ref: p.ref, date: p.date, ...(url ? { url } : {}) };
        }),
        hiddenSources: memory.provenance.length - visible.length,
      };
    },

    async reportOutcome(query: OutcomeQuery): Promise<OutcomeReport> {
      const voting = options.voting;
      if (!voting) {
        throw new AuthError(
          'this server reads a pool file, which is read-only: outcomes are recorded on a pool database (--db) or through the App (--server)',
          403,
        );
      }
      const refused = await voting.mayVote();
      if (refused) throw new AuthError(`this run may not report outcomes: ${refused}`, 403);
      // a local admin votes as a private reader of its own pool
      const requester = bound
        ? (requesterFor(undefined) as Requester & { repo: string })
        : { tenant, repo: 'local', visibility: 'private' as const };
      const result = await recordAgentReport(voting.deps, {
        requester,
        runId: voting.runId,
        ids: query.ids,
        outcome: query.outcome,
        ...(query.note ? { note: query.note } : {}),
      });
      return { outcome: query.outcome, ...result };
    },

    async top(k: number) {
      const requester = requesterFor(undefined);
      const now = options.recallDeps.clock.now();
      const ranked = (await options.list())
        .filter((m) => m.level === 'insight' && maySee(m, requester) && passes(m))
        .map((memory) => ({ memory, prior: qualityPrior(memory, now) }))
        .sort(
          (a, b) => b.prior - a.prior || b.memory.support - a.memory.support || a.memory.id.localeCompare(b.memory.id),
        )
        .slice(0, k);
      const hits: RecallHit[] = ranked.map(({ memory, prior }) => ({
        memory,
        score: prior,
        parts: { lexical: 0, vector: 0, routine: 0, prior, fused: prior },
        transferred:
          requester.repo !== undefined && !memory.provenance.some((p) => sameRepo(p.repo, requester.repo as string)),
      }));
      return toRecalled(hits, requester);
    },
  };
}
