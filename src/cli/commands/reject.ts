/** reject: reject a memory: it is kept for the record but never recalled (audited). */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import { govern } from '../governance.js';
import type { CliCommand } from './command.js';

export const rejectCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('reject')
      .argument('<id>', 'the memory id')
      .action(async (id: string) => {
        const opts = parseFlags({ id: flag.id }, { id });
        const memory = await ctx.changeStore((store) => govern(ctx, store, 'reject', opts.id));
        ctx.print(`rejected ${opts.id}${memory ? `: ${memory.title}` : ''}`);
      });
  },
};
