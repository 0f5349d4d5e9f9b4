/**
 * Fix records from anywhere: JSON Lines in the format of docs/fixes-format.md, so fixes from other
 * trackers can be learned without git. Every line is parsed with zod before anything is learned:
 * one bad line is an InputError naming the line and the field, and then nothing is learned.
 * Also reads the eval-dev set's lines (repo, sha, subject, body, files, tests_changed, language,
 * date); their `labels` are the eval's answer key and are dropped unread.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { tenantOf } from '../core/ids.js';
import { isTestPath } from '../core/test-paths.js';
import { CHECK_KINDS, SOURCE_KINDS, VISIBILITIES, type Fix, type Visibility } from '../core/types.js';

/** Caps on one record, so a pasted log cannot blow up the pool. */
const LIMITS = { title: 500, problem: 20_000, change: 20_000, files: 5_000, signals: 100 } as const;

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

const signalSchema = z.strictObject({
  kind: z.enum(['check-red-green', 'tests-added', 'tests-changed']),
  check: z.enum(CHECK_KINDS).optional(),
  name: text(300).optional(),
  excerpt: text(4_000).optional(),
});

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date');
const repoName = z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name');

/** One line. Unknown fields (the eval's `labels` among them) are dropped without being read. */
const lineSchema = z.object({
  // the problem
  title: text(LIMITS.title).optional(),
  subject: text(LIMITS.title).optional(),
  problem: text(LIMITS.problem).optional(),
  body: text(LIMITS.problem).optional(),
  change: text(LIMITS.change).optional(),
  files: z.array(z.string().min(1).max(1_000)).max(LIMITS.files).optional(),
  tests_changed: z.boolean().optional(),
  signals: z.array(signalSchema).max(LIMITS.signals).optional(),
  language: z.string().max(50).optional(),
  // provenance
  repo: repoName.optional(),
  repo_id: z.number().int().positive().optional(),
  ref: z.string().min(1).max(200).optional(),
  sha: z
    .string()
    .regex(/^[0-9a-f]{7,64}$/i, 'must be a hex commit id')
    .optional(),
  source_kind: z.enum(SOURCE_KINDS).optional(),
  url: z.url().optional(),
  authors: z.array(z.string().min(1).max(100)).max(100).optional(),
  date: isoDate.optional(),
  visibility: z.enum(VISIBILITIES).optional(),
  tenant: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/i, 'must be an organization login')
    .optional(),
  trusted: z.boolean().optional(),
});

export interface FixesFileOptions {
  /** repository (owner/name) for lines that name none */
  repo?: string;
  /** pool tenant for lines that name none (default: the repository's owner) */
  tenant?: string;
  /** visibility for lines that name none (default: private) */
  visibility?: Visibility;
  /** how the file is named in error messages */
  source?: string;
}

function fieldOf(issue: z.core.$ZodIssue): string {
  return issue.path.length > 0 ? issue.path.join('.') : '(line)';
}

/** Parses JSON Lines text into fixes; throws InputError naming the first bad line and field. */
export function parseFixesJsonl(content: string, options: FixesFileOptions = {}): Fix[] {
  const source = options.source ?? 'fixes file';
  const fixes: Fix[] = [];
  const lines = content.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const raw = lines[i]?.trim() ?? '';
    if (raw === '') continue;
    const where = `${source}:${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new InputError(`${where}: not valid JSON`);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw new InputError(`${where}: must be a JSON object`);
    const parsed = lineSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputError(`${where}: ${issue ? `${fieldOf(issue)}: ${issue.message}` : 'invalid record'}`);
    }
    const line = parsed.data;
    const title = (line.title ?? line.subject ?? '').trim();
    if (title === '') throw new InputError(`${where}: title: required (or subject)`);
    const repo = line.repo ?? options.repo;
    if (!repo) throw new InputError(`${where}: repo: required (or pass a repository)`);
    const ref = line.ref ?? line.sha;
    if (!ref) throw new InputError(`${where}: ref: required (or sha)`);
    const files = line.files ?? [];
    fixes.push({
      tenant: (line.tenant ?? options.tenant ?? tenantOf(repo)).toLowerCase(),
      repo,
      ...(line.repo_id === undefined ? {} : { repoId: line.repo_id }),
      visibility: line.visibility ?? options.visibility ?? 'private',
      sourceKind: line.source_kind ?? (line.sha ? 'commit' : 'import'),
      ref,
      ...(line.url === undefined ? {} : { url: line.url }),
      title,
      problem: line.problem ?? line.body ?? '',
      change: line.change ?? '',
      files,
      testsChanged: line.tests_changed ?? files.some(isTestPath),
      signals: line.signals ?? [],
      authors: line.authors ?? [],
      trusted: line.trusted ?? true,
      ...(line.language === undefined ? {} : { language: line.language }),
      date: line.date ?? new Date(0).toISOString(),
    });
  }
  return fixes;
}

/** Reads and parses a fixes file; nothing is returned unless every line is valid. */
export async function readFixesFile(path: string, options: FixesFileOptions = {}): Promise<Fix[]> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      `cannot read fixes file ${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? String(error))}`,
    );
  }
  return parseFixesJsonl(content, { ...options, source: options.source ?? path });
}
