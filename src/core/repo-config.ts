/**
 * The repository configuration `.github/memory-transfer.yml` (docs/configuration.md): its schema,
 * its defaults and how a raw (already YAML-parsed and merged) object becomes a valid config.
 * Pure: loading the files (org defaults, `_extends`) happens in src/app/interaction/config.ts.
 */
import { z } from 'zod';

export const CONFIG_FILE_NAME = 'memory-transfer.yml';

export const REVIEW_MODES = ['dashboard', 'comment', 'off'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];

/** The most insights one comment may show (a hard cap, whatever the config says). */
export const MAX_TOP_K = 3;

const REPO_NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/)?[A-Za-z0-9._-]{1,100}$/;

function buildSchema(strict: boolean) {
  const object = strict ? z.strictObject : z.object;
  const comment = object({
    /** comment on newly opened (or edited) issues */
    issues: z.boolean().default(true),
    /** comment on a pull request whose CI fails */
    failing_prs: z.boolean().default(true),
  });
  return object({
    /** false turns the App off for this repository: no learning, no comments */
    enabled: z.boolean().default(true),
    comment: comment.default({ issues: true, failing_prs: true }),
    /** the relevance bar: hits below this fused score are not shown (null: the engine's bar) */
    min_score: z.number().min(0).nullable().default(null),
    /** how many insights one comment shows, at most 3 */
    top_k: z.number().int().min(1).max(MAX_TOP_K).default(MAX_TOP_K),
    /** where insights waiting for review are listed */
    review: z.enum(REVIEW_MODES).default('dashboard'),
    /** hold insights learned from trusted fixes for review too (untrusted ones always wait) */
    review_trusted: z.boolean().default(false),
    /** the repository of the review dashboard: "name" in this org or "owner/name" (null: this repository) */
    dashboard_repo: z
      .string()
      .regex(REPO_NAME, 'must be a repository name like ".github" or "acme/.github"')
      .nullable()
      .default(null),
    /** labels that mark a PR or issue as a fix */
    fix_labels: z.array(z.string().min(1).max(100)).max(50).default(['bug', 'fix', 'regression']),
    /** bot logins whose fixes may be learned (other bots are always skipped) */
    trusted_bots: z.array(z.string().min(1).max(100)).max(50).default([]),
    /** an insight unused for this many days and never upvoted is archived */
    staleness_days: z.number().int().min(1).max(3650).default(90),
  });
}

const strictSchema = buildSchema(true);
const looseSchema = buildSchema(false);

export type RepoConfig = z.infer<typeof strictSchema>;

export const DEFAULT_REPO_CONFIG: RepoConfig = Object.freeze(strictSchema.parse({})) as RepoConfig;

export interface ParsedRepoConfig {
  config: RepoConfig;
  /** one line per problem, naming the field; empty when the config is clean */
  problems: string[];
  /** true when the config was rejected and `config` is the fallback */
  rejected: boolean;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => (path ? `${path}.${key}` : key));
    return `unknown option${keys.length > 1 ? 's' : ''} ${keys.map((k) => `\`${k}\``).join(', ')} (ignored)`;
  }
  return `\`${path || '(root)'}\`: ${issue.message}`;
}

/**
 * Validates a merged raw config. Unknown options are reported and ignored; any other problem
 * (a wrong type, an out-of-range value) rejects the whole file and `fallback` is used instead.
 */
export function parseRepoConfig(raw: unknown, fallback: RepoConfig = DEFAULT_REPO_CONFIG): ParsedRepoConfig {
  const input = raw === null || raw === undefined ? {} : raw;
  const strict = strictSchema.safeParse(input);
  if (strict.success) return { config: strict.data, problems: [], rejected: false };
  const problems = strict.error.issues.map(describeIssue);
  if (strict.error.issues.every((issue) => issue.code === 'unrecognized_keys')) {
    const loose = looseSchema.safeParse(input);
    if (loose.success) return { config: loose.data, problems, rejected: false };
  }
  return { config: fallback, problems, rejected: true };
}

/** The dashboard repository as owner/name, for a config read in `repo` (owner/name). */
export function dashboardRepoOf(config: RepoConfig, repo: string): string {
  const owner = repo.split('/')[0] ?? repo;
  const target = config.dashboard_repo;
  if (!target) return repo;
  return target.includes('/') ? target : `${owner}/${target}`;
}

/** Does learning hold insights of trusted fixes as `proposed` (LearnOptions.requireReview)? */
export function requiresReview(config: RepoConfig): boolean {
  return config.review_trusted;
}

/**
 * Deep-merges config layers the way Probot's `context.config` does (later layers win), except
 * that a list replaces the list below it instead of being concatenated to it.
 */
export function mergeConfigLayers(layers: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    if (!isPlainObject(layer)) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
      const below = out[key];
      out[key] = isPlainObject(value) && isPlainObject(below) ? mergeConfigLayers([below, value]) : value;
    }
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
