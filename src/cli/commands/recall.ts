/**
 * recall: task text → the most relevant memories in the pool, with score parts and provenance.
 */
import { Option } from 'commander';
import type { Command } from 'commander';
import { z } from 'zod';
import type { Requester } from '../../core/types.js';
import { recall } from '../../services/recall.js';
import type { CliContext } from '../context.js';
import { engineDeps } from '../engine.js';
import { EXIT } from '../exit-codes.js';
import { flag, parseFlags } from '../flags.js';
import { hitJson, hitText } from '../render.js';
import type { CliCommand } from './command.js';

const shape = {
  text: z.string().trim().min(1, 'the task text is empty'),
  k: flag.positiveInt.max(50, 'must be at most 50').default(3),
  level: flag.level.default('insight'),
  repo: flag.repo.optional(),
  visibility: flag.visibility.optional(),
  json: z.boolean().optional(),
  failEmpty: z.boolean().optional(),
};

async function run(ctx: CliContext, text: string, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags(shape, { ...raw, text });
  await ctx.readStore(async (store) => {
    const tenant = await ctx.tenant(store, opts.repo);
    // a task in a repository sees what a reader of its visibility may see (private by default)
    const visibility = opts.visibility ?? (opts.repo ? 'private' : undefined);
    const requester: Requester = { tenant, ...(opts.repo && { repo: opts.repo }), ...(visibility && { visibility }) };
    const hits = await recall(engineDeps(ctx, store), requester, opts.text, { k: opts.k, level: opts.level });
    if (opts.json) {
      ctx.json({
        query: opts.text,
        tenant,
        repo: opts.repo ?? null,
        level: opts.level,
        results: hits.map((h, i) => hitJson(h, i + 1)),
      });
    } else if (hits.length === 0) {
      ctx.io.err('memory-transfer: nothing in the pool is relevant enough to this task\n');
    } else {
      ctx.print(hits.map((h, i) => hitText(h, i + 1)).join('\n\n'));
    }
    if (hits.length === 0 && opts.failEmpty) ctx.exitCode = EXIT.empty;
  });
}

export const recallCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('recall')
      .description('recall the insights most relevant to a task, from every repository of the pool')
      .argument('<text>', 'the task, in words (an issue title, a failing test, a goal)')
      .option('-k, --k <n>', 'how many results', '3')
      .addOption(
        new Option('--level <level>', 'the memory level')
          .choices(['insight', 'summary', 'workflow', 'trajectory'])
          .default('insight'),
      )
      .option('--repo <owner/name>', 'the repository the task is in (its visibility limits what may be shown)')
      .addOption(
        new Option('--visibility <visibility>', 'the visibility of --repo (default private)').choices([
          'public',
          'internal',
          'private',
        ]),
      )
      .option('--json', 'print results with their score parts and provenance as JSON')
      .option('--fail-empty', 'exit with code 4 when nothing is recalled')
      .action((text: string, options: Record<string, unknown>) => run(ctx, text, options));
  },
};
