/**
 * forget: forget memories: delete them from the pool (each audited). More than one needs a
 * confirmation on the terminal, or --yes.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { InputError, NotFoundError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import { govern } from '../governance.js';
import type { CliCommand } from './command.js';

const shape = { ids: z.array(flag.id).min(1), yes: z.boolean().optional() };

async function run(ctx: CliContext, ids: string[], raw: Record<string, unknown>): Promise<void> {
  for (const id of ids) {
    if (!flag.id.safeParse(id).success)
      throw new InputError(`${JSON.stringify(id)}: must be a memory id such as m3f9a1c20b7 (see list or recall)`);
  }
  const opts = parseFlags(shape, { ...raw, ids: [...new Set(ids)] });
  if (opts.ids.length > 1 && !opts.yes) {
    const question = `forget ${opts.ids.length} memories (${opts.ids.join(', ')}) for good?`;
    const confirmed = ctx.io.confirm ? await ctx.io.confirm(question) : undefined;
    if (confirmed === undefined) {
      throw new InputError(
        `forgetting ${opts.ids.length} memories at once needs --yes (e.g. memory-transfer forget ${opts.ids.join(' ')} --yes); nothing was forgotten`,
      );
    }
    if (!confirmed) return ctx.print('nothing was forgotten');
  }
  await ctx.changeStore(async (store) => {
    const tenant = await ctx.tenant(store);
    const found = new Set((await store.getMemories(tenant, opts.ids)).map((m) => m.id));
    const missing = opts.ids.filter((id) => !found.has(id));
    if (missing.length > 0 && opts.ids.length > 1)
      throw new NotFoundError(`no memory ${missing.join(', ')} in the pool of ${tenant}; nothing was forgotten`);
    for (const id of opts.ids) {
      const memory = await govern(ctx, store, 'forget', id);
      ctx.print(`forgot ${id}${memory ? `: ${memory.title}` : ''}`);
    }
  });
}

export const forgetCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('forget')
      .argument('<ids...>', 'the memory ids')
      .option('--yes', 'forget several memories without asking')
      .action((ids: string[], options: Record<string, unknown>) => run(ctx, ids, options));
  },
};
