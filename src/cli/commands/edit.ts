/**
 * edit: rewrite a memory's title, description or content. The new text must pass the insight
 * screen (else exit 2 with the reason, nothing changed); audited as 'edit'.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import { editAsAdmin } from '../governance.js';
import type { CliCommand } from './command.js';

const text = z.string().trim().min(1, 'must not be empty').max(4000, 'must be at most 4,000 characters').optional();

export const editCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('edit')
      .argument('<id>', 'the memory id')
      .option('--title <text>', 'the new title')
      .option('--description <text>', 'the new description')
      .option('--content <text>', 'the new content')
      .option('--json', 'print the edited memory as JSON')
      .action(async (id: string, raw: Record<string, unknown>) => {
        const opts = parseFlags(
          { id: flag.id, title: text, description: text, content: text, json: z.boolean().optional() },
          { ...raw, id },
        );
        const { id: memoryId, json, ...changes } = opts;
        if (Object.values(changes).every((value) => value === undefined)) {
          throw new InputError('give at least one of --title, --description, --content');
        }
        const { before, after } = await ctx.changeStore((store) => editAsAdmin(ctx, store, memoryId, changes));
        if (json) return ctx.json(after);
        const edited = (['title', 'description', 'content'] as const).filter((f) => before[f] !== after[f]);
        ctx.print(edited.length > 0 ? `edited ${memoryId}: ${edited.join(', ')}` : `${memoryId} unchanged`);
      });
  },
};
