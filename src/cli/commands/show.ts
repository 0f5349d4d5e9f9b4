/** show: one memory with its evidence and sources. */
import type { Command } from 'commander';
import { z } from 'zod';
import { NotFoundError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import { memoryText } from '../render.js';
import type { CliCommand } from './command.js';

async function run(ctx: CliContext, id: string, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags({ id: flag.id, json: z.boolean().optional() }, { ...raw, id });
  await ctx.readStore(async (store) => {
    const tenant = await ctx.tenant(store);
    const memory = await store.getMemory(tenant, opts.id);
    if (!memory) throw new NotFoundError(`no memory ${opts.id} in ${tenant}`);
    if (opts.json) ctx.json(memory);
    else ctx.print(memoryText(memory));
  });
}

export const showCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('show')
      .argument('<id>', 'the memory id (see list or recall)')
      .option('--json', 'print the memory as JSON')
      .action((id: string, options: Record<string, unknown>) => run(ctx, id, options));
  },
};
