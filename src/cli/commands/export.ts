/**
 * export: a tenant's pool as a versioned JSON Lines file (docs/export-format.md): all of it, the
 * memories of one level or status, or (--for-action) only what the Action injects.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import { encodePoolBytes, forActionFile, serializePool } from '../../core/retrieval/pool-file.js';
import type { Memory } from '../../core/types.js';
import type { CliContext } from '../context.js';
import { parseTenant } from '../default-tenant.js';
import { flag, parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

const PAGE = 1000;

const shape = {
  out: z.string().min(1).optional(),
  forAction: z.boolean().optional(),
  level: flag.level.optional(),
  status: flag.status.optional(),
  forOrg: z.string().optional(),
};

async function run(ctx: CliContext, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags(shape, raw);
  // what the Action reads: active insights (another level with --level); never proposed, rejected or archived
  if (opts.forAction && opts.status && opts.status !== 'active') {
    throw new InputError(
      `--status: the Action injects active memories only, so --for-action exports those; got ${opts.status} (drop --for-action to export it)`,
    );
  }
  const level = opts.level ?? (opts.forAction ? 'insight' : undefined);
  const status = opts.forAction ? 'active' : opts.status;
  const forOrg = opts.forOrg === undefined ? undefined : parseTenant(opts.forOrg, '--for-org');
  const { tenant, text, count } = await ctx.readStore(async (store) => {
    const tenant = await ctx.tenant(store);
    const filter = { ...(level && { level: [level] }), ...(status && { status: [status] }) };
    const memories: Memory[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await store.listMemories(tenant, { ...filter, limit: PAGE, offset });
      // the Action's file: each insight's sources cut to a bounded representative list
      memories.push(...(opts.forAction ? page.map(forActionFile) : page));
      if (page.length < PAGE) break;
    }
    // a file for another organization's repositories: its memories are labelled with that organization
    const labelled = forOrg
      ? memories.map((memory) => ({
          ...memory,
          tenant: forOrg,
          provenance: memory.provenance.map((source) => ({ ...source, tenant: forOrg })),
        }))
      : memories;
    return {
      tenant: forOrg ?? tenant,
      // the Action's file carries its insights' terms counted ahead (it then tokenizes none at start)
      text: serializePool({ tenant: forOrg ?? tenant, exportedAt: new Date().toISOString() }, labelled, {
        forAction: opts.forAction === true,
      }),
      count: memories.length,
    };
  });
  if (!opts.out || opts.out === '-') return ctx.io.out(text);
  const file = resolve(ctx.io.cwd, opts.out);
  const partial = `${file}.${process.pid}.partial`;
  try {
    // `--out .github/memory-pool.jsonl.gz` in a repository without a .github folder yet
    await mkdir(dirname(file), { recursive: true });
    await writeFile(partial, encodePoolBytes(text, file));
    await rename(partial, file);
  } catch (error) {
    throw new InputError(`${opts.out}: cannot write the export (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const noun = level === undefined ? (count === 1 ? 'memory' : 'memories') : `${level}${count === 1 ? '' : 's'}`;
  const what = [status, noun].filter(Boolean).join(' ');
  // the Action refuses a file of another organization: say which repositories this one serves
  const serves = opts.forAction
    ? ` (the Action injects it in repositories of ${tenant} only; --for-org OWNER labels it for another owner's)`
    : '';
  ctx.io.err(`exported ${count} ${what} of ${tenant} to ${opts.out}${serves}\n`);
}

export const exportCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('export')
      .option('--out <file>', 'write to this file (default: standard output)')
      .option(
        '--for-action',
        "only what the Action injects: active insights (the file to commit for the Action's pool mode)",
      )
      .addOption(
        new Option('--level <level>', 'only this level').choices(['insight', 'summary', 'workflow', 'trajectory']),
      )
      .addOption(
        new Option('--status <status>', 'only this status').choices(['active', 'proposed', 'rejected', 'archived']),
      )
      .option(
        '--for-org <owner>',
        "label the file for this organization (or user): the Action injects a file only in its own organization's repositories (default: the tenant)",
      )
      .action((options: Record<string, unknown>) => run(ctx, options));
  },
};
