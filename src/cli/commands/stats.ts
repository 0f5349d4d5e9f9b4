/** stats: what the pool holds. */
import type { Command } from 'commander';
import { z } from 'zod';
import { supportingFixes } from '../../core/rendering/report-model.js';
import { allInsights } from '../../services/report.js';
import type { CliContext } from '../context.js';
import { defaultTenant } from '../default-tenant.js';
import { parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

async function run(ctx: CliContext, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags({ json: z.boolean().optional() }, raw);
  await ctx.readStore(async (store) => {
    const tenant = await ctx.tenant(store);
    const stats = await store.stats(tenant);
    // the fixes behind an insight, counted as the report counts them (some learned fixes give none)
    const fixesBehindInsights = supportingFixes(await allInsights(store, tenant)).length;
    const chosen = await defaultTenant(store);
    const others = (await store.listTenants()).filter((t) => t !== tenant);
    if (opts.json)
      return ctx.json({
        tenant,
        defaultTenant: chosen ?? null,
        otherTenants: others,
        pool: ctx.poolLocation,
        ...stats,
        fixesBehindInsights,
      });
    const parts = (counts: Record<string, number>) =>
      Object.entries(counts)
        .map(([key, value]) => `${key} ${value}`)
        .join(', ') || 'none';
    ctx.print(
      [
        `pool      ${ctx.poolLocation}`,
        `tenant    ${tenant}${tenant === chosen ? ' (the default: `memory-transfer tenant NAME` changes it)' : ''}`,
        ...(others.length > 0 ? [`others    ${others.join(', ')} (--tenant NAME to see one)`] : []),
        `memories  ${stats.memories} (${parts(stats.byLevel)})`,
        `status    ${parts(stats.byStatus)}`,
        `repos     ${stats.repos}`,
        `fixes     ${stats.fixes} learned, ${fixesBehindInsights} behind an insight` +
          (stats.fixesByFallback > 0
            ? `; ${stats.fixesByFallback} learned by rules because the model failed: the next learn with a model retries them`
            : ''),
      ].join('\n'),
    );
  });
}

export const statsCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('stats')
      .option('--json', 'print the figures as JSON')
      .action((options: Record<string, unknown>) => run(ctx, options));
  },
};
