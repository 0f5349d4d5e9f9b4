/**
 * reembed: fills in the missing vectors of a tenant's insights (after an embedding failure during
 * learn), or re-embeds every insight with --all (after a change of embedding model or dimensions).
 * Needs an embedding endpoint (OPENAI_API_KEY, and OPENAI_BASE_URL / MEMORY_TRANSFER_EMBED_MODEL).
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import { describeTokenTotals } from '../../core/token-usage.js';
import { reembedInsights } from '../../services/reembed.js';
import type { CliContext } from '../context.js';
import { engineDeps } from '../engine.js';
import { parseFlags } from '../flags.js';
import { startProgress } from '../progress.js';
import type { CliCommand } from './command.js';

async function run(ctx: CliContext, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags({ all: z.boolean().optional(), json: z.boolean().optional() }, raw);
  await ctx.withStore(async (store) => {
    const deps = await engineDeps(ctx, store);
    const { embedder } = deps;
    if (!embedder)
      throw new InputError(
        'reembed needs an embedding endpoint: set OPENAI_API_KEY (and OPENAI_BASE_URL for another endpoint, ' +
          'e.g. OPENAI_BASE_URL=http://localhost:11434/v1 MEMORY_TRANSFER_EMBED_MODEL=nomic-embed-text)',
      );
    const tenant = await ctx.tenant(store);
    const progress = startProgress(ctx.io, 'reembed', undefined, opts.json);
    let summary;
    try {
      summary = await reembedInsights({ store, embedder, logger: ctx.logger }, tenant, {
        ...(opts.all && { all: true }),
        onProgress: (done, total) => progress.update(done, total),
      });
    } finally {
      progress.stop();
    }
    const tokens = deps.meter.totals();
    if (opts.json) return ctx.json({ tenant, ...summary, tokens });
    const what = opts.all ? 'every insight' : 'insights without a vector';
    ctx.print(
      summary.insights === 0
        ? `every insight of ${tenant} already has a ${summary.model} vector`
        : `embedded ${summary.embedded} insight${summary.embedded === 1 ? '' : 's'} of ${tenant} (${what}) with ${summary.model}`,
    );
    const used = describeTokenTotals(tokens);
    if (used) ctx.print(`tokens: ${used}`);
  });
}

export const reembedCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('reembed')
      .option('--all', 'embed every insight again, not only those without a vector of the current model')
      .option('--json', 'print the summary as JSON')
      .action((options: Record<string, unknown>) => run(ctx, options));
  },
};
