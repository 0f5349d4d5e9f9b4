/** archive-stale: archive (never delete) active insights unused for a while and never up-voted. */
import type { Command } from 'commander';
import { z } from 'zod';
import { DEFAULT_STALE_DAYS, archiveStale, findStale } from '../../services/governance.js';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

const shape = {
  days: flag.wholeNumber(1, 36_500, 90).default(DEFAULT_STALE_DAYS),
  dryRun: z.boolean().optional(),
  json: z.boolean().optional(),
};

export const archiveStaleCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('archive-stale')
      .option('--days <n>', 'unused for this many days', String(DEFAULT_STALE_DAYS))
      .option('--dry-run', 'list what would be archived, change nothing')
      .option('--json', 'print the ids as JSON')
      .action(async (raw: Record<string, unknown>) => {
        const opts = parseFlags(shape, raw);
        await ctx.changeStore(async (store) => {
          const tenant = await ctx.tenant(store);
          const now = new Date();
          const ids = opts.dryRun
            ? (await findStale(store, tenant, { days: opts.days, now })).map((m) => m.id)
            : await archiveStale(store, tenant, { days: opts.days, now, actor: 'cli:archive-stale' });
          if (opts.json) ctx.json({ tenant, days: opts.days, dryRun: opts.dryRun ?? false, ids });
          else
            ctx.print(
              `${opts.dryRun ? 'would archive' : 'archived'} ${ids.length} memories unused for ${opts.days} days${ids.length ? `: ${ids.join(', ')}` : ''}`,
            );
        });
      });
  },
};
