/**
 * share: an admin lets a memory be shown in repositories less private than its sources (same
 * organization only; audited). Withdrawn automatically if a source repository becomes more private.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import { govern } from '../governance.js';
import type { CliCommand } from './command.js';

export const shareCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('share')
      .argument('<id>', 'the memory id')
      .action(async (id: string) => {
        const opts = parseFlags({ id: flag.id }, { id });
        const memory = await ctx.changeStore((store) => govern(ctx, store, 'share', opts.id));
        ctx.print(
          `shared ${opts.id} wider than ${memory?.visibility ?? 'its sources'}: every repository of the organization may see it`,
        );
      });
  },
};
