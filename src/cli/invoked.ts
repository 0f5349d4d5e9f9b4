/**
 * The command a run names, read from the arguments before anything else is loaded: main.ts
 * imports (and registers) only that command, and bin/memory-transfer.js runs `recall` from its
 * own bundle (dist/cli/recall/, scripts/bundle-cli.mjs). No imports: it must cost nothing.
 */

/** The global options that take a value (the command name is the first other word). */
const GLOBAL_OPTIONS_WITH_VALUE = new Set(['--db', '--tenant']);

/** The command the arguments run (or `help <command>` asks about), before commander parses them. */
export function invokedCommand(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') return argv[i + 1];
    if (GLOBAL_OPTIONS_WITH_VALUE.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg === 'help' ? argv[i + 1] : arg;
  }
  return undefined;
}
