/**
 * recall: task text → the most relevant memories in the pool, with score parts and provenance.
 * It must start fast (docs/quality.md: within 2.5× of a bare `node -e 0`): its flags are read
 * with the plain checks of ../flag-checks.ts, and nothing on its path imports zod.
 */
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { resolve } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { InputError } from '../../core/errors.js';
import { MAX_TASK_LENGTH } from '../../core/retrieval/recall-limits.js';
import { MEMORY_LEVELS, VISIBILITIES } from '../../core/types.js';
import { DEFAULT_REPO_VISIBILITY } from '../../core/visibility.js';
import { withheldLine } from '../../core/rendering/withheld.js';
import type { Requester } from '../../core/types.js';
import { AGENT_TASK_KINDS, silenceOf } from '../../core/retrieval/task-kind.js';
import { recall, taskKindFor, withCompleteProvenance } from '../../services/recall.js';
import { withheldInsights } from '../../services/withheld.js';
import type { CliContext } from '../context.js';
import { recallDeps } from '../engine.js';
import { EXIT } from '../exit-codes.js';
import {
  checkFlags,
  matching,
  oneOf,
  optional,
  REPO_MESSAGE,
  REPO_PATTERN,
  text,
  wholeNumber,
  withDefault,
  yes,
} from '../flag-checks.js';
import { hitJson, hitText } from '../render.js';
import type { CliCommand } from './command.js';

const checks = {
  text: text(),
  k: withDefault(wholeNumber(1, 50, 3), 3),
  level: withDefault(oneOf(MEMORY_LEVELS), 'insight'),
  repo: optional(matching(REPO_PATTERN, REPO_MESSAGE)),
  visibility: optional(oneOf(VISIBILITIES)),
  json: yes,
  failEmpty: yes,
  file: optional(text(1)),
  anyTask: yes,
};

const HOW =
  'give the task as an argument (memory-transfer recall "dates break in UTC+13"), `-` to read it from standard input, or --file FILE';

/**
 * The first `limit` characters of a stream's text, from its first non-blank one, and whether more
 * follows: it reads no further than that (a task of 200 MB is not held in memory to keep 20,000
 * characters of it), and stopping closes the stream.
 */
export async function leadingText(
  chunks: AsyncIterable<Uint8Array | string>,
  limit: number,
): Promise<{ text: string; more: boolean }> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  for await (const chunk of chunks) {
    text += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    // leading blanks are not part of the task (it is trimmed)
    if (text.trim() === '') text = '';
    else text = text.trimStart();
    if (text.length > limit) return { text: text.slice(0, limit), more: true };
  }
  text += decoder.end();
  return { text, more: false };
}

/** The task: the argument, standard input (`-`) or a file (--file); the first MAX_TASK_LENGTH characters count. */
async function taskText(ctx: CliContext, argument: string | undefined, file: string | undefined): Promise<string> {
  if (argument !== undefined && file !== undefined)
    throw new InputError(`recall takes the task from an argument or from --file, not both; ${HOW}`);
  let read: { text: string; more: boolean };
  let from: string;
  if (file !== undefined) {
    from = file;
    try {
      read = await leadingText(createReadStream(resolve(ctx.io.cwd, file)), MAX_TASK_LENGTH);
    } catch (error) {
      throw new InputError(`--file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}); ${HOW}`);
    }
  } else if (argument === '-') {
    if (!ctx.io.stdin) throw new InputError(`there is no standard input to read the task from; ${HOW}`);
    from = 'standard input';
    read = await leadingText(ctx.io.stdin(), MAX_TASK_LENGTH);
  } else {
    from = 'the argument';
    const text = (argument ?? '').trim();
    read = { text: text.slice(0, MAX_TASK_LENGTH), more: text.length > MAX_TASK_LENGTH };
  }
  // a task cut at the limit keeps all of its characters (as the recall API cuts one)
  const task = read.more ? read.text : read.text.trim();
  if (task === '') throw new InputError(`the task is empty (${from}); ${HOW}`);
  if (read.more)
    ctx.io.err(
      `memory-transfer: the task is longer than ${MAX_TASK_LENGTH} characters: its first ${MAX_TASK_LENGTH} are used (as by the recall API)\n`,
    );
  return task;
}

async function run(ctx: CliContext, argument: string | undefined, raw: Record<string, unknown>): Promise<void> {
  const text = await taskText(ctx, argument, typeof raw.file === 'string' ? raw.file : undefined);
  const opts = checkFlags(checks, { ...raw, text });
  await ctx.readStore(async (store) => {
    const tenant = await ctx.tenant(store, opts.repo);
    // a task in a repository sees what a reader of its visibility may see (private by default)
    const visibility = opts.visibility ?? (opts.repo ? DEFAULT_REPO_VISIBILITY : undefined);
    const requester: Requester = { tenant, ...(opts.repo && { repo: opts.repo }), ...(visibility && { visibility }) };
    const deps = await recallDeps(ctx, store);
    const options = {
      k: opts.k,
      level: opts.level,
      taskKinds: AGENT_TASK_KINDS,
      ...(opts.anyTask && { anyTask: true }),
    };
    const recalled = await recall(deps, requester, opts.text, options);
    // relevant insights this repository may not see are named, never reported as irrelevant
    const withheld = await withheldInsights(requester, recalled, {
      k: opts.k,
      nameIds: true,
      recallAsPrivate: (wider) => recall(deps, wider, opts.text, options),
    });
    const hits = await withCompleteProvenance(store, tenant, recalled);
    const taskKind = await taskKindFor(deps, opts.text);
    if (opts.json) {
      ctx.json({
        query: opts.text,
        tenant,
        repo: opts.repo ?? null,
        level: opts.level,
        taskKind,
        results: hits.map((h, i) => hitJson(h, i + 1)),
        withheld: withheld ?? null,
      });
    } else if (hits.length === 0) {
      const silent = opts.anyTask ? undefined : silenceOf(taskKind, AGENT_TASK_KINDS);
      ctx.io.err(
        withheld
          ? `memory-transfer: nothing recalled that ${opts.repo ?? 'this repository'} may see: ${withheldLine(withheld)}\n`
          : silent
            ? `memory-transfer: nothing recalled: ${silent} (--any-task searches anyway)\n`
            : 'memory-transfer: nothing in the pool is relevant enough to this task\n',
      );
    } else {
      ctx.print(hits.map((h, i) => hitText(h, i + 1)).join('\n\n'));
      if (withheld) ctx.io.err(`memory-transfer: ${withheldLine(withheld)}\n`);
    }
    if (hits.length === 0 && opts.failEmpty) ctx.exitCode = EXIT.empty;
  });
}

export const recallCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('recall')
      .argument('[text]', 'the task, in words (an issue title, a failing test, a goal); - reads it from standard input')
      .option('--file <file>', 'read the task from this file (any size: the first 20,000 characters count)')
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
      .option('--any-task', 'answer a task that describes no failure too (a topic search such as "time zones")')
      .action((text: string | undefined, options: Record<string, unknown>) => run(ctx, text, options));
  },
};
