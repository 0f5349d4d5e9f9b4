/**
 * import: memories from an export file, all or nothing: the whole file is validated first (a bad
 * line is named and nothing is imported), then written in one transaction.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import { parsePool } from '../../core/pool-file.js';
import type { CliContext } from '../context.js';
import { parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

async function run(ctx: CliContext, file: string, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags({ file: z.string().min(1), json: z.boolean().optional() }, { ...raw, file });
  let text: string;
  try {
    text = await readFile(resolve(ctx.io.cwd, opts.file), 'utf8');
  } catch (error) {
    throw new InputError(`${opts.file}: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let parsed: ReturnType<typeof parsePool>;
  try {
    parsed = parsePool(text);
  } catch (error) {
    throw new InputError(`${opts.file}: ${(error as Error).message}; nothing was imported`);
  }
  const { header, memories } = parsed;
  const flag = ctx.globals.tenant?.trim().toLowerCase();
  if (flag && flag !== header.tenant) {
    throw new InputError(`${opts.file} holds the pool of ${header.tenant}, not ${flag}; nothing was imported`);
  }
  const replaced = await ctx.withStore(async (store) => {
    const existing = await store.getMemories(header.tenant, memories.map((m) => m.id));
    await store.transaction(async () => {
      for (const memory of memories) {
        await store.putMemory(memory);
        for (const source of memory.provenance) await store.markFixLearned(header.tenant, source.repo, source.ref);
      }
    });
    return existing.length;
  });
  const summary = { tenant: header.tenant, imported: memories.length, replaced };
  if (opts.json) return ctx.json(summary);
  ctx.print(`imported ${memories.length} memories into ${header.tenant} (${replaced} replaced existing ones)`);
}

export const importCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('import')
      .description('import an export file into the pool: all of it in one transaction, or nothing')
      .argument('<file>', 'a file written by `memory-transfer export`')
      .option('--json', 'print the summary as JSON')
      .action((file: string, options: Record<string, unknown>) => run(ctx, file, options));
  },
};
