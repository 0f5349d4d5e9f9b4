/** list: the memories of the pool, filtered by status, level and repository. */
import type { Command } from 'commander';
import { z } from 'zod';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import { memoryRow } from '../render.js';
import type { CliCommand } from './command.js';

const shape = {
  status: flag.status.optional(),
  level: flag.level.optional(),
  repo: flag.repo.optional(),
  limit: flag.wholeNumber(1, undefined, 100).default(100),
  json: z.boolean().optional(),
};

async function run(ctx: CliContext, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags(shape, raw);
  await ctx.readStore(async (store) => {
    const tenant = await ctx.tenant(store);
    const filter = {
      ...(opts.status && { status: [opts.status] }),
      ...(opts.level && { level: [opts.level] }),
      ...(opts.repo && { repo: opts.repo }),
    };
    const memories = await store.listMemories(tenant, { ...filter, limit: opts.limit });
    if (opts.json) return ctx.json({ tenant, memories });
    if (memories.length === 0) return ctx.io.err('memory-transfer: no memories match\n');
    ctx.print(memories.map(memoryRow).join('\n'));
    const total = await store.countMemories(tenant, filter);
    if (total > memories.length) ctx.io.err(`(${memories.length} of ${total}; --limit to see more)\n`);
  });
}

export const listCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('list')
      .option('--status <status>', 'only this status: proposed, active, rejected, archived')
      .option('--level <level>', 'only this level: insight, summary, workflow, trajectory')
      .option('--repo <owner/name>', 'only memories learned from this repository')
      .option('--limit <n>', 'at most this many', '100')
      .option('--json', 'print the memories as JSON')
      .action((options: Record<string, unknown>) => run(ctx, options));
  },
};
