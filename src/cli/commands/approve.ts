/** approve: approve a memory: it becomes active and may be recalled (audited). */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import { govern } from '../governance.js';
import type { CliCommand } from './command.js';

export const approveCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('approve')
      .argument('<id>', 'the memory id')
      .action(async (id: string) => {
        const opts = parseFlags({ id: flag.id }, { id });
        const memory = await ctx.changeStore((store) => govern(ctx, store, 'approve', opts.id));
        ctx.print(`approved ${opts.id}${memory ? `: ${memory.title}` : ''}`);
      });
  },
};
