/** audit: who approved, rejected, forgot, archived, restored, shared or revoked what, and when. */
import type { Command } from 'commander';
import { z } from 'zod';
import type { AuditEntry } from '../../core/types.js';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

const shape = {
  limit: flag.wholeNumber(1, 10_000, 100).default(100),
  json: z.boolean().optional(),
};

function line(entry: AuditEntry): string {
  const parts = [entry.at, entry.actor, entry.action, entry.memoryId ?? '-'];
  return `${parts.join('  ')}${entry.detail ? `  ${entry.detail.replace(/\s+/g, ' ')}` : ''}`;
}

export const auditCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('audit')
      .option('--limit <n>', 'how many entries, newest first', '100')
      .option('--json', 'print the entries as JSON')
      .action(async (raw: Record<string, unknown>) => {
        const opts = parseFlags(shape, raw);
        await ctx.readStore(async (store) => {
          const tenant = await ctx.tenant(store);
          const entries = await store.listAudit(tenant, opts.limit);
          if (opts.json) ctx.json({ tenant, entries });
          else if (entries.length === 0) ctx.io.err(`memory-transfer: the audit log of ${tenant} is empty\n`);
          else ctx.print(entries.map(line).join('\n'));
        });
      });
  },
};
