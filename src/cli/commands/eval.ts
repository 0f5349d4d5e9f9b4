/**
 * eval: runs the evaluation (scripts/eval.ts: learn the eval set into a throw-away pool, then
 * precision@3 across repositories) in a child process. It needs a checkout of the repository
 * (the script and its eval set are not in the published package).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

/** The repository root, from src/cli/commands/ or build/cli/commands/. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function run(ctx: CliContext, files: string[], raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags(
    {
      files: z.array(z.string().min(1)),
      json: z.boolean().optional(),
      verbose: z.boolean().optional(),
      diagnose: z.boolean().optional(),
      offtopic: z.string().min(1).optional(),
      kindsFromLabels: z.boolean().optional(),
      readByModel: z.boolean().optional(),
      record: z.string().min(1).optional(),
      readings: z.string().min(1).optional(),
      abstractByModel: z.boolean().optional(),
      recordAbstractions: z.string().min(1).optional(),
      abstractions: z.string().min(1).optional(),
    },
    { ...raw, files },
  );
  const path = (name: string, value: string | undefined) => (value ? [name, resolve(ctx.io.cwd, value)] : []);
  const script = resolve(ROOT, 'scripts/eval.ts');
  if (!existsSync(script))
    throw new InputError('eval needs a checkout of the memory-transfer repository (scripts/eval.ts)');
  const args = [
    '--import',
    'tsx',
    script,
    ...opts.files.map((file) => resolve(ctx.io.cwd, file)),
    ...(opts.json ? ['--json'] : []),
    ...(opts.verbose ? ['--verbose'] : []),
    ...(opts.diagnose ? ['--diagnose'] : []),
    ...path('--offtopic', opts.offtopic),
    ...(opts.kindsFromLabels ? ['--kinds-from-labels'] : []),
    ...(opts.readByModel ? ['--read-by-model'] : []),
    ...path('--record', opts.record),
    ...path('--readings', opts.readings),
    ...(opts.abstractByModel ? ['--abstract-by-model'] : []),
    ...path('--record-abstractions', opts.recordAbstractions),
    ...path('--abstractions', opts.abstractions),
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...ctx.io.env } });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => ctx.io.out(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => ctx.io.err(chunk));
  ctx.exitCode = await new Promise<number>((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done(code ?? 1));
  });
}

export const evalCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('eval')
      .argument(
        '[files...]',
        'the fixes file with labels (default: ../shared/eval-dev beside the checkout, else eval/sets/g; it says which); several: their sets as one organization',
      )
      .option('--json', 'print the figures as JSON')
      .option('--verbose', 'print each query and what it recalled')
      .option('--diagnose', 'say where precision is lost: the routine read in each task, and in each learned fix')
      .option('--offtopic <file>', 'off-topic tasks (JSON Lines with a subject) whose silence is measured')
      .option('--kinds-from-labels', "the answer key reads each bug task's routines: the ceiling of a model's reading")
      .option('--read-by-model', 'the configured model reads every task (needs OPENAI_API_KEY and the network)')
      .option('--record <file>', "with --read-by-model: append the model's readings to this file")
      .option('--readings <file>', 'recorded readings of the tasks, replayed offline in place of a model')
      .option('--abstract-by-model', 'the configured model writes the insights (needs OPENAI_API_KEY and the network)')
      .option('--record-abstractions <file>', "with --abstract-by-model: append the model's answers to this file")
      .option(
        '--abstractions <file>',
        "a model's recorded answers for the fixes, replayed offline by the LLM abstractor",
      )
      .action((files: string[], options: Record<string, unknown>) => run(ctx, files, options));
  },
};
