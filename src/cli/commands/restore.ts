/** restore: put an archived (or rejected) memory back: it becomes active and may be recalled (audited). */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import { govern } from '../governance.js';
import type { CliCommand } from './command.js';

export const restoreCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('restore')
      .argument('<id>', 'the memory id')
      .action(async (id: string) => {
        const opts = parseFlags({ id: flag.id }, { id });
        const memory = await ctx.changeStore((store) => govern(ctx, store, 'restore', opts.id));
        ctx.print(`restored ${opts.id}${memory ? ` (was ${memory.status}): ${memory.title}` : ''}`);
      });
  },
};
