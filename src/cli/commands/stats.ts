/** stats: what the pool holds. */
import type { Command } from 'commander';
import { z } from 'zod';
import type { CliContext } from '../context.js';
import { defaultTenant } from '../default-tenant.js';
import { parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

async function run(ctx: CliContext, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags({ json: z.boolean().optional() }, raw);
  await ctx.readStore(async (store) => {
    const tenant = await ctx.tenant(store);
    const stats = await store.stats(tenant);
    const chosen = await defaultTenant(store);
    const others = (await store.listTenants()).filter((t) => t !== tenant);
    if (opts.json)
      return ctx.json({
        tenant,
        defaultTenant: chosen ?? null,
        otherTenants: others,
        pool: ctx.poolLocation,
        ...stats,
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
        `fixes     ${stats.fixes}` +
          (stats.fixesByFallback > 0
            ? ` (${stats.fixesByFallback} learned by rules because the model failed: the next learn with a model retries them)`
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
