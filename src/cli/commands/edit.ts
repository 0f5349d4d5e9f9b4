/**
 * edit: rewrite a memory's title, description or content, or replace its tags. The new text must
 * pass the insight screen (else exit 2 with the reason, nothing changed); audited as 'edit'. Tags
 * are labels for people: what the memory teaches (its identity fields) is not changed by them.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { flag, parseFlags } from '../flags.js';
import { editAsAdmin } from '../governance.js';
import type { CliCommand } from './command.js';

const text = z.string().trim().min(1, 'must not be empty').max(4000, 'must be at most 4,000 characters').optional();
/** "a,b,c" → the tags (an empty list clears them); the governance service checks each */
const tagList = z
  .string()
  .max(5000, 'must be at most 5,000 characters')
  .transform((list) =>
    list
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ''),
  )
  .optional();

export const editCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('edit')
      .argument('<id>', 'the memory id')
      .option('--title <text>', 'the new title')
      .option('--description <text>', 'the new description')
      .option('--content <text>', 'the new content')
      .option('--tags <list>', 'the new tags, comma-separated, replacing all of them (labels for people)')
      .option('--json', 'print the edited memory as JSON')
      .action(async (id: string, raw: Record<string, unknown>) => {
        const opts = parseFlags(
          {
            id: flag.id,
            title: text,
            description: text,
            content: text,
            tags: tagList,
            json: z.boolean().optional(),
          },
          { ...raw, id },
        );
        const { id: memoryId, json, ...changes } = opts;
        if (Object.values(changes).every((value) => value === undefined)) {
          throw new InputError('give at least one of --title, --description, --content, --tags');
        }
        const { before, after } = await ctx.changeStore((store) => editAsAdmin(ctx, store, memoryId, changes));
        if (json) return ctx.json(after);
        const edited = (['title', 'description', 'content', 'tags'] as const).filter(
          (f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]),
        );
        ctx.print(edited.length > 0 ? `edited ${memoryId}: ${edited.join(', ')}` : `${memoryId} unchanged`);
      });
  },
};
