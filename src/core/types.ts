/**
 * The domain model of Memory Transfer (glossary in docs/architecture.md).
 * Pure types and constants: no I/O, nothing imported from the rest of the project.
 */

/** What kind of task a text is (core/retrieval/task-kind.ts reads it): insights help whoever repairs a failure. */
export const TASK_KINDS = ['failure', 'feature', 'question', 'docs', 'chore', 'discussion'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export const MEMORY_LEVELS = ['trajectory', 'workflow', 'summary', 'insight'] as const;
export type MemoryLevel = (typeof MEMORY_LEVELS)[number];

/** public < internal < private: a memory may flow only to a reader at least as private as its source. */
export const VISIBILITIES = ['public', 'internal', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const MEMORY_STATUSES = ['proposed', 'active', 'rejected', 'archived'] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

export const SOURCE_KINDS = ['pull_request', 'issue', 'commit', 'check', 'import'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** The kind of check that went red then green. */
export const CHECK_KINDS = ['lint', 'types', 'unit', 'e2e', 'build', 'other'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export interface ValidationSignal {
  /** what kind of evidence this is */
  kind: 'check-red-green' | 'tests-added' | 'tests-changed';
  /** for check-red-green: which kind of check */
  check?: CheckKind;
  /** the check's or test file's name (kept out of insights, used as evidence only) */
  name?: string;
  /** a capped, redacted excerpt of the failing log or annotation */
  excerpt?: string;
}

/** Where a memory came from. The first entry of Memory.provenance is its origin. */
export interface Provenance {
  /** the organization (pool) login, lower-case */
  tenant: string;
  /** owner/name */
  repo: string;
  repoId?: number;
  visibility: Visibility;
  sourceKind: SourceKind;
  /** PR or issue number, or commit sha */
  ref: string;
  url?: string;
  authors: string[];
  /** ISO 8601 date of the fix */
  date: string;
}

/** A resolved problem with its evidence. Produced by a source (git, GitHub, fixes file). */
export interface Fix {
  tenant: string;
  repo: string;
  repoId?: number;
  visibility: Visibility;
  sourceKind: SourceKind;
  ref: string;
  url?: string;
  /** the problem's title: issue title, PR title or commit subject */
  title: string;
  /** the problem text: issue body, PR body or commit body (may be empty) */
  problem: string;
  /** a capped summary of the change: diff excerpt or PR description of the change */
  change: string;
  /** paths changed (used for cues only, never copied into an insight) */
  files: string[];
  testsChanged: boolean;
  signals: ValidationSignal[];
  authors: string[];
  /** true when the fix was merged by, and its text written by, people with write access */
  trusted: boolean;
  /** main language of the repository, when known */
  language?: string;
  /** ISO 8601 */
  date: string;
  /** the tracker's labels on the PR or issue (e.g. "bug"); not the eval answer key */
  labels?: string[];
  /** issues the fix refers to or closes: "#12", "acme/api#3" */
  issues?: string[];
}

export interface InsightBody {
  title: string;
  description: string;
  content: string;
}
export interface WorkflowBody {
  goal: string;
  steps: string[];
}
export interface SummaryBody {
  task_summary: string;
  experience_summary: string;
}
export interface TrajectoryBody {
  /** the redacted evidence, concrete: commands, files, outputs */
  trace: string;
}

export type MemoryBody =
  | { level: 'insight'; insight: InsightBody }
  | { level: 'workflow'; workflow: WorkflowBody }
  | { level: 'summary'; summary: SummaryBody }
  | { level: 'trajectory'; trajectory: TrajectoryBody };

export interface Votes {
  up: number;
  down: number;
}

export interface Outcomes {
  success: number;
  failure: number;
}

/** The abstractor whose rules write memories without a model: its name in `Memory.model`. */
export const RULES_MODEL = 'rules@1';

/**
 * Who wrote a memory's text: the rules abstractor (`model` is RULES_MODEL), a language model
 * (`model` names it), or learn, which rewrote a rule-written insight as a lesson learned from the
 * organization (its `lesson` is a `learned-<phrase>` id).
 */
export const MEMORY_WRITERS = ['rules', 'model', 'learned'] as const;
export type MemoryWriter = (typeof MEMORY_WRITERS)[number];

/**
 * What a memory teaches, as fields: the one home of its identity. Set by whoever writes the
 * memory (the abstractors, the learned lessons, learn's merges) and read by every decision that
 * depends on it (learn's merges, recall's ranking and folding, the report). The tags `lesson:…`,
 * `routine:…` and `facet:…` and the content's closing "Seen in: …." sentence say the same for
 * people (search and display); nothing reads them back, and editing them changes none of these.
 */
export interface MemoryIdentity {
  /**
   * The lesson it teaches: a catalog lesson's id (src/core/knowledge/kinds/, e.g. "empty-input")
   * or a lesson learned from the organization ("learned-serving-size"); null when it teaches its
   * routine kind's checklist only.
   */
  lesson: string | null;
  /**
   * Its routine kinds (src/core/knowledge/kinds/), main one first, each once; may be empty. A
   * kind this version does not know (a pool written by a newer one) matches no task.
   */
  routines: string[];
  /** The narrower routine within a kind, as "<kind>/<facet>" ("encoding-locale/time"), or null. */
  facet: string | null;
  /**
   * Insights: the conditions of the fixes that taught it, in general words, first merged first, at most
   * MAX_EXAMPLES (src/core/insight-text.ts); each once, without ";", newlines or a closing ".". The
   * content renders them as its closing sentence. Empty on the other levels; a model's insight starts
   * with none (the fixes merged into it add theirs).
   */
  examples: string[];
}

/**
 * A memory in the pool. Every level carries title/description/content as text (what is indexed
 * and rendered); `body` keeps the level's structured shape from the research.
 */
export interface Memory extends MemoryIdentity {
  /** short stable id, e.g. "m3f9a1c20b7" */
  id: string;
  tenant: string;
  level: MemoryLevel;
  title: string;
  description: string;
  content: string;
  body: MemoryBody;
  /**
   * labels for people, searched as text: "lang:typescript", "tool:npm", "check:unit", and the
   * identity's "routine:edge-input", "facet:edge-input/empty", "lesson:empty-input" (the code
   * reads the identity from its fields, MemoryIdentity)
   */
  tags: string[];
  /** short lines a reader can check: "tests changed in the same change", "check `lint` failed then passed" */
  evidence: string[];
  /**
   * where it came from; first entry is the origin; merged near-duplicates append theirs. Complete
   * unless `provenanceCount` is set: then it is a bounded sample (see below).
   */
  provenance: Provenance[];
  /**
   * Set only on a memory read for recall or learning (`provenance: 'sample'`): how many provenance
   * entries it has in all, while `provenance` holds a representative sample of them: the first entry
   * of each distinct repository, in order, at most five (the origin first). Absent: complete.
   */
  provenanceCount?: number;
  /** the most private visibility among its provenance */
  visibility: Visibility;
  /** an admin approved showing it in repositories less private than its source */
  sharedWiderBy?: string;
  status: MemoryStatus;
  votes: Votes;
  /** how many fixes back it (1 + merged near-duplicates) */
  support: number;
  /** how many times it was injected or commented */
  uses: number;
  outcomes: Outcomes;
  /** "rules@1" or the LLM model name */
  model: string;
  /** who wrote its text (MemoryWriter); with `model`, what learn's merges decide by */
  writer: MemoryWriter;
  createdAt: string;
  updatedAt: string;
  lastUsedAt?: string;
}

/** Who is asking for a recall: the policy filter decides what they may see. */
export interface Requester {
  tenant: string;
  /** the repository the memories will be shown in; absent for a local admin (CLI) */
  repo?: string;
  repoId?: number;
  visibility?: Visibility;
  /** include memories of these statuses (default: active only) */
  statuses?: MemoryStatus[];
}

/** One recalled memory with the parts of its score. */
export interface RecallHit {
  memory: Memory;
  score: number;
  parts: {
    lexical: number;
    vector: number;
    routine: number;
    prior: number;
    fused: number;
  };
  /** true when the memory was learned in a repository other than the requester's */
  transferred: boolean;
}

export interface AuditEntry {
  tenant: string;
  actor: string;
  action: 'approve' | 'reject' | 'forget' | 'archive' | 'restore' | 'edit' | 'share' | 'revoke-source' | 'import';
  memoryId?: string;
  detail?: string;
  at: string;
}
