/**
 * report: the pool as one self-contained HTML page (charts, the insights table, a detail per
 * insight), readable offline and attachable to a job summary or an artifact (docs/dashboard.md).
 */
import { rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import { renderReportPage } from '../../core/rendering/report-html.js';
import { systemClock } from '../../ports/index.js';
import { loadReport } from '../../services/report.js';
import type { CliContext } from '../context.js';
import { parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

const SINCE_HELP = 'must be a date like 2026-01-31 (or an ISO time) or a number of days like 90d';

/** "2026-01-31", an ISO time, or "90d" (days before now) → ISO time. */
export function parseSince(value: string, now: Date): string {
  const days = /^(\d{1,4})d$/.exec(value.trim());
  if (days) return new Date(now.getTime() - Number(days[1]) * 86_400_000).toISOString();
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim()))
    throw new InputError(`--since: ${SINCE_HELP}`);
  const time = Date.parse(value.trim());
  if (!Number.isFinite(time)) throw new InputError(`--since: ${SINCE_HELP}`);
  return new Date(time).toISOString();
}

async function run(ctx: CliContext, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags(
    {
      out: z.string({ error: 'is required: the HTML file to write, like report.html' }).min(1),
      since: z.string().optional(),
    },
    raw,
  );
  const now = systemClock.now();
  const since = opts.since === undefined ? undefined : parseSince(opts.since, now);
  const { html, model } = await ctx.withStore(async (store) => {
    const tenant = await ctx.tenant(store);
    const model = await loadReport(store, systemClock, { viewer: { tenant }, ...(since ? { since } : {}) });
    return { html: renderReportPage(model), model };
  });
  const file = resolve(ctx.io.cwd, opts.out);
  const partial = `${file}.${process.pid}.partial`;
  try {
    await writeFile(partial, html, 'utf8');
    await rename(partial, file);
  } catch (error) {
    throw new InputError(`--out: cannot write ${opts.out} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  ctx.io.err(`wrote the report of ${model.tenant} (${model.totals.insights} insights) to ${opts.out}\n`);
}

export const reportCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('report')
      .requiredOption('--out <file>', 'the HTML file to write, e.g. report.html')
      .option('--since <date>', 'figures over time start here: 2026-01-31, or 90d for the last 90 days')
      .action((options: Record<string, unknown>) => run(ctx, options));
  },
};
