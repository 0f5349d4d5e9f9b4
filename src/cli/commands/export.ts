/** export: the whole pool of a tenant as a versioned JSON Lines file (docs/export-format.md). */
import { rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import { serializePool } from '../../core/pool-file.js';
import type { Memory } from '../../core/types.js';
import type { CliContext } from '../context.js';
import { parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

const PAGE = 1000;

async function run(ctx: CliContext, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags({ out: z.string().min(1).optional() }, raw);
  const { tenant, text, count } = await ctx.readStore(async (store) => {
    const tenant = await ctx.tenant(store);
    const memories: Memory[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await store.listMemories(tenant, { limit: PAGE, offset });
      memories.push(...page);
      if (page.length < PAGE) break;
    }
    return {
      tenant,
      text: serializePool({ tenant, exportedAt: new Date().toISOString() }, memories),
      count: memories.length,
    };
  });
  if (!opts.out || opts.out === '-') return ctx.io.out(text);
  const file = resolve(ctx.io.cwd, opts.out);
  const partial = `${file}.${process.pid}.partial`;
  try {
    await writeFile(partial, text, 'utf8');
    await rename(partial, file);
  } catch (error) {
    throw new InputError(`${opts.out}: cannot write the export (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  ctx.io.err(`exported ${count} memories of ${tenant} to ${opts.out}\n`);
}

export const exportCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('export')
      .description('export the pool as versioned JSON Lines (the Action reads this file in pool-file mode)')
      .option('--out <file>', 'write to this file (default: standard output)')
      .action((options: Record<string, unknown>) => run(ctx, options));
  },
};
