/**
 * Parses `/memory …` commands out of an issue or PR comment (docs/commands.md). Pure.
 * A command is a line that starts with `/memory`, outside fenced code blocks and quotes.
 */
import { linesOutsideFences } from './text.js';

export const COMMAND_NAMES = ['approve', 'reject', 'forget', 'search', 'why', 'help'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** Commands that change the pool: only people with write access may run them. */
export const WRITE_COMMANDS: ReadonlySet<CommandName> = new Set(['approve', 'reject', 'forget']);

export type MemoryCommand =
  | { name: 'approve' | 'reject' | 'forget'; id: string }
  | { name: 'search'; text: string }
  | { name: 'why' }
  | { name: 'help' }
  | { name: 'invalid'; line: string; reason: string };

/** At most this many commands are run from one comment. */
export const MAX_COMMANDS_PER_COMMENT = 5;
const MAX_SEARCH_CHARS = 500;
const MEMORY_ID = /^m[0-9a-f]{10}$/;

export function isMemoryId(value: string): boolean {
  return MEMORY_ID.test(value);
}

/** Every `/memory` command in the comment, in order (at most MAX_COMMANDS_PER_COMMENT). */
export function parseCommands(body: string): MemoryCommand[] {
  const commands: MemoryCommand[] = [];
  for (const rawLine of linesOutsideFences(body)) {
    // an indented line is code too
    if (rawLine.startsWith('    ') || rawLine.startsWith('\t')) continue;
    const line = rawLine.trim();
    if (!/^\/memory(\s|$)/i.test(line)) continue;
    commands.push(parseCommandLine(line));
    if (commands.length >= MAX_COMMANDS_PER_COMMENT) break;
  }
  return commands;
}

/** One `/memory …` line. */
export function parseCommandLine(line: string): MemoryCommand {
  const rest = line.replace(/^\/memory/i, '').trim();
  const [word = '', ...args] = rest.split(/\s+/);
  const name = word.toLowerCase();
  switch (name) {
    case '':
    case 'help':
      return { name: 'help' };
    case 'why':
      return { name: 'why' };
    case 'approve':
    case 'reject':
    case 'forget': {
      const id = (args[0] ?? '').replace(/^`|`$/g, '').toLowerCase();
      if (!isMemoryId(id))
        return { name: 'invalid', line, reason: `\`/memory ${name}\` needs a memory id like m3f9a1c20b7` };
      return { name, id };
    }
    case 'search': {
      const text = rest.slice(word.length).trim().slice(0, MAX_SEARCH_CHARS);
      if (!text) return { name: 'invalid', line, reason: '`/memory search` needs some text to search for' };
      return { name: 'search', text };
    }
    default:
      return { name: 'invalid', line, reason: 'unknown command' };
  }
}
