/**
 * learn: mine fixes from a local git repository (--git) or read them from a fixes file
 * (--fixes), and learn them into the pool, with progress on stderr.
 */
import { Option } from 'commander';
import type { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import { describeTokenTotals, emptyTokenTotals } from '../../core/token-usage.js';
import type { Fix } from '../../core/types.js';
import { learnFixes, type LearnSummary } from '../../services/learn.js';
import { readFixesFile } from '../../sources/fixes-file.js';
import { mineGitFixes } from '../../sources/git.js';
import type { CliContext } from '../context.js';
import { engineDeps } from '../engine.js';
import { EXIT } from '../exit-codes.js';
import { flag, parseFlags } from '../flags.js';
import { startProgress } from '../progress.js';
import type { CliCommand } from './command.js';

interface Source {
  repo?: string;
  tenant?: string;
  count?: number;
  fixes: AsyncIterable<Fix> | Iterable<Fix>;
}

/** The fixes to learn; `tenant` (the pool's) goes to fixes that name none (undefined: the repository's owner). */
async function openSource(opts: LearnFlags, tenant: string | undefined): Promise<Source> {
  if (opts.git) {
    const mined = await mineGitFixes({
      dir: opts.git,
      ...(opts.repo && { repo: opts.repo }),
      ...(tenant && { tenant }),
      visibility: opts.visibility,
      ...(opts.commits && { commitsFile: opts.commits }),
      ...(opts.since && { since: opts.since }),
      ...(opts.max && { max: opts.max }),
    });
    return { repo: mined.repo, tenant: mined.tenant, count: mined.count, fixes: mined };
  }
  const fixes = await readFixesFile(opts.fixes ?? '', {
    ...(opts.repo && { repo: opts.repo }),
    ...(tenant && { tenant }),
    visibility: opts.visibility,
    source: opts.fixes ?? 'fixes file',
  });
  const limited = opts.max ? fixes.slice(0, opts.max) : fixes;
  // the file's own repo and tenant when all its fixes share one
  const only = (values: string[]) => (new Set(values).size === 1 ? values[0] : undefined);
  const repo = only(limited.map((fix) => fix.repo));
  const fileTenant = only(limited.map((fix) => fix.tenant));
  return { count: limited.length, fixes: limited, ...(repo && { repo }), ...(fileTenant && { tenant: fileTenant }) };
}

/** The tenant of a source's first fix (a fixes file naming several): the one a new pool is made with. */
async function firstTenant(source: Source): Promise<string | undefined> {
  for await (const fix of source.fixes) return fix.tenant;
  return undefined;
}

const learnShape = {
  git: z.string().min(1).optional(),
  fixes: z.string().min(1).optional(),
  repo: flag.repo.optional(),
  visibility: flag.visibility.default('private'),
  commits: z.string().min(1).optional(),
  since: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), {
      error: (issue) => `must be a date, e.g. 2024-01-31 or 2024-01-31T12:00:00Z; got ${JSON.stringify(issue.input)}`,
    })
    .optional(),
  max: flag.wholeNumber(1, undefined, 100).optional(),
  force: z.boolean().optional(),
  json: z.boolean().optional(),
};
type LearnFlags = ReturnType<typeof parseFlags<typeof learnShape>>;

async function learn(ctx: CliContext, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags(learnShape, raw);
  if (!opts.git === !opts.fixes) throw new InputError('learn needs exactly one of --git DIR or --fixes FILE');
  if ((opts.commits || opts.since) && !opts.git) throw new InputError('--commits and --since apply to --git only');
  const started = Date.now();
  let tokens = emptyTokenTotals();
  // the source is opened (and its input checked) before the pool is created or changed
  const peeked = await ctx.peekLearningTenant();
  const opened = await openSource(opts, peeked);
  const { source, tenant, summary } = await ctx.withStore(async (store) => {
    // one pool: fixes go to the pool's default tenant; an empty pool takes its first source's
    const known = await ctx.learningTenant(store);
    let source = known === peeked ? opened : await openSource(opts, known);
    let tenant = known ?? source.tenant ?? (await firstTenant(source));
    if (!known && tenant) {
      // a fixes file spanning owners is read again with the new pool's tenant for lines naming none
      if (opts.fixes && source.tenant !== tenant) source = await openSource(opts, tenant);
      await ctx.setDefaultTenant(store, tenant);
    }
    tenant ??= source.tenant;
    const progress = startProgress(ctx.io, 'learn', source.count, opts.json);
    const deps = await engineDeps(ctx, store);
    try {
      const summary = await learnFixes(deps, source.fixes, {
        ...(opts.force && { force: true }),
        onProgress: (done, total) => progress.update(done, total ?? source.count),
      });
      return { source, tenant, summary };
    } finally {
      progress.stop();
      tokens = deps.meter.totals();
    }
  });
  const seconds = (Date.now() - started) / 1000;
  // fixes that failed stay unlearned (a rerun retries them); say so in the exit code
  if (summary.failed > 0) ctx.exitCode = EXIT.failed;
  if (opts.json) {
    ctx.json({ repo: source.repo ?? null, tenant: tenant ?? null, ...summary, tokens, seconds });
    return;
  }
  const from = source.repo ? ` from ${source.repo}` : '';
  const learned = summary.fixes - summary.skipped - summary.failed;
  ctx.print(
    `learned ${learned} fix${learned === 1 ? '' : 'es'}${from}: ` +
      `${summary.created} memories created, ${summary.merged} insights strengthened, ` +
      `${summary.rejected} rejected by the specificity check or screen` +
      (summary.skipped > 0 ? `, ${summary.skipped} already learned (--force to learn again)` : '') +
      (summary.failed > 0 ? `, ${summary.failed} failed (see the errors above; run again to retry them)` : '') +
      ` (${seconds.toFixed(1)} s)`,
  );
  if (summary.retried > 0) ctx.print(`${summary.retried} learned by rules before, abstracted again by the model`);
  if (summary.fallbacks > 0) ctx.print(describeFallbacks(summary));
  if (summary.withoutVectors > 0) {
    ctx.print(
      `${summary.withoutVectors} insight${summary.withoutVectors === 1 ? '' : 's'} stored without vectors ` +
        '(the embedding endpoint failed or its circuit breaker was open); `memory-transfer reembed`, or the next ' +
        'learn run whose embeddings succeed, fills them in',
    );
  }
  if (summary.vectorsFilled > 0) {
    ctx.print(
      `${summary.vectorsFilled} vector${summary.vectorsFilled === 1 ? '' : 's'} missing from earlier runs filled in`,
    );
  }
  const used = describeTokenTotals(tokens);
  if (used) ctx.print(`tokens: ${used}`);
}

/** "12 learned by rules: the model answered 500 (9), circuit open (3); a later run with the model retries them" */
export function describeFallbacks(summary: LearnSummary): string {
  const reasons = Object.entries(summary.fallbackReasons)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, n]) => `${reason} (${n})`);
  const shown = reasons.length > 4 ? [...reasons.slice(0, 4), `${reasons.length - 4} more`] : reasons;
  return (
    `${summary.fallbacks} learned by rules because the model failed: ${shown.join(', ')}; ` +
    'the next learn run with the model abstracts them again (no --force needed)'
  );
}

export const learnCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('learn')
      .option('--git <dir>', 'a local git repository (working copy or bare) to mine fix commits from')
      .option('--fixes <file>', 'a fixes file, one JSON fix per line (docs/fixes-format.md)')
      .option(
        '--repo <owner/name>',
        'the repository recorded as provenance (default: from the origin remote, else <tenant>/<folder>)',
      )
      .addOption(
        new Option('--visibility <visibility>', 'the source repository visibility')
          .choices(['public', 'internal', 'private'])
          .default('private'),
      )
      .option('--commits <file>', 'with --git: exactly these commit SHAs (one per line) are taken as fixes')
      .option('--since <date>', 'with --git: only commits after this date (e.g. 2024-01-31)')
      .option('--max <n>', 'at most this many fixes (the newest)')
      .option('--force', 'learn fixes again even if they were learned before')
      .option('--json', 'print the summary as JSON')
      .action((options: Record<string, unknown>) => learn(ctx, options));
  },
};
