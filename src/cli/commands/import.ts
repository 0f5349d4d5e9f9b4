/**
 * import: memories from an export file, all or nothing: the whole file is validated first (a bad
 * line is named and nothing is imported), every memory is screened like a freshly learned one (a
 * file may have been edited by hand: one that reads like an instruction to the agent refuses the
 * whole import, naming its line), then written in one transaction.
 */
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { describeError, InputError } from '../../core/errors.js';
import { searchableText } from '../../core/retrieval/memory-index.js';
import { decodePoolBytes, parsePoolBytes } from '../../core/retrieval/pool-file.js';
import type { Memory } from '../../core/types.js';
import { screenPoolMemory } from '../../services/pool-screen.js';
import type { Embedder } from '../../ports/index.js';
import type { Store } from '../../store/store.js';
import type { CliContext } from '../context.js';
import { defaultTenant } from '../default-tenant.js';
import { engineDeps } from '../engine.js';
import { actor } from '../governance.js';
import { parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

async function run(ctx: CliContext, file: string, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags({ file: z.string().min(1), json: z.boolean().optional() }, { ...raw, file });
  let bytes: Uint8Array;
  try {
    bytes = await readFile(resolve(ctx.io.cwd, opts.file));
  } catch (error) {
    throw new InputError(`${opts.file}: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  // the one pool-file reader: plain or gzip-compressed (an export written to a `.gz` path)
  let parsed: ReturnType<typeof parsePoolBytes>;
  try {
    parsed = parsePoolBytes(bytes);
  } catch (error) {
    throw new InputError(`${opts.file}: ${(error as Error).message}; nothing was imported`);
  }
  const { header, memories } = parsed;
  refuseUnscreened(opts.file, bytes, memories);
  const flag = ctx.globals.tenant?.trim().toLowerCase();
  if (flag && flag !== header.tenant) {
    throw new InputError(`${opts.file} holds the pool of ${header.tenant}, not ${flag}; nothing was imported`);
  }
  const { replaced, embedded } = await ctx.withStore(async (store) => {
    const existing = await store.getMemories(
      header.tenant,
      memories.map((m) => m.id),
    );
    const made = !(await defaultTenant(store)) && (await store.listTenants()).length === 0;
    await store.transaction(async () => {
      for (const memory of memories) {
        await store.putMemory(memory);
        for (const source of memory.provenance) await store.markFixLearned(header.tenant, source.repo, source.ref);
      }
      // an import replaces memories wholesale: the audit log says who did it, from which file, and how much
      await store.appendAudit({
        tenant: header.tenant,
        actor: actor(ctx),
        action: 'import',
        detail: `${memories.length} memories from ${basename(opts.file)} (${existing.length} replaced existing ones)`,
        at: new Date().toISOString(),
      });
    });
    if (made) await ctx.setDefaultTenant(store, header.tenant);
    const { embedder } = await engineDeps(ctx, store);
    const embedded = embedder ? await embedInsights(ctx, store, embedder, memories) : 0;
    return { replaced: existing.length, embedded };
  });
  const summary = { tenant: header.tenant, imported: memories.length, replaced, embedded };
  if (opts.json) return ctx.json(summary);
  ctx.print(`imported ${memories.length} memories into ${header.tenant} (${replaced} replaced existing ones)`);
}

/** Throws, naming the line, for the first memory that fails the insight screen (every status). */
function refuseUnscreened(file: string, bytes: Uint8Array, memories: Memory[]): void {
  for (const [index, memory] of memories.entries()) {
    const verdict = screenPoolMemory(memory);
    if (verdict.ok) continue;
    const lines = memoryLineNumbers(decodePoolBytes(bytes));
    throw new InputError(
      `${file}: line ${lines[index] ?? '?'}: memory ${memory.id} fails the insight screen (${verdict.reason ?? 'refused'}); nothing was imported`,
    );
  }
}

/** The 1-based line number of each memory line (the first non-blank line is the header). */
function memoryLineNumbers(text: string): number[] {
  const numbers: number[] = [];
  let header = true;
  for (const [index, line] of text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .entries()) {
    if (line.trim() === '') continue;
    if (header) header = false;
    else numbers.push(index + 1);
  }
  return numbers;
}

const BATCH = 96;

/**
 * Exports carry no vectors: with an embedder configured, the imported insights are embedded again
 * (a failure only leaves them to lexical recall, with a warning). Returns how many got a vector.
 */
async function embedInsights(ctx: CliContext, store: Store, embedder: Embedder, memories: Memory[]): Promise<number> {
  const insights = memories.filter((m) => m.level === 'insight');
  let done = 0;
  try {
    for (let start = 0; start < insights.length; start += BATCH) {
      const batch = insights.slice(start, start + BATCH);
      const vectors = await embedder.embed(batch.map(searchableText));
      for (const [i, memory] of batch.entries()) {
        const vector = vectors[i];
        if (vector) await store.putVector(memory.tenant, memory.id, vector, embedder.model);
      }
      done += batch.length;
    }
  } catch (error) {
    ctx.logger.warn(
      `import: embedding failed after ${done} insights; the rest are recalled lexically only (${describeError(error)})`,
    );
  }
  return done;
}

export const importCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('import')
      .argument('<file>', 'a file written by `memory-transfer export`')
      .option('--json', 'print the summary as JSON')
      .action((file: string, options: Record<string, unknown>) => run(ctx, file, options));
  },
};
