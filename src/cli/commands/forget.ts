/** forget: forget a memory: delete it from the pool (audited). */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import { govern } from '../governance.js';
import type { CliCommand } from './command.js';

export const forgetCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('forget')
      .description('forget a memory: delete it from the pool')
      .argument('<id>', 'the memory id')
      .action(async (id: string) => {
        const opts = parseFlags({ id: flag.id }, { id });
        const memory = await ctx.withStore((store) => govern(ctx, store, 'forget', opts.id));
        ctx.print(`forgot ${opts.id}${memory ? `: ${memory.title}` : ''}`);
      });
  },
};
