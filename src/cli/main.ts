/**
 * The `memory-transfer` command. `main(argv)` returns the exit code (docs/cli.md):
 * 0 ok · 1 failed · 2 bad usage or input · 3 pool error · 4 recall found nothing (--fail-empty).
 * Errors print one line `memory-transfer: <message>`; a stack only with MEMORY_TRANSFER_DEBUG=1.
 */
import { Command, CommanderError, Help } from 'commander';
import { describeError } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { COMMANDS } from './commands/index.js';
import { CliContext } from './context.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { invokedCommand } from './invoked.js';
import { processIo } from './io.js';
import type { CliIo } from './io.js';

export { VERSION, invokedCommand };

/**
 * The program, with the implementation of the command `argv` runs imported and registered; every
 * other command is listed (name, usage, description from the registry) without being imported.
 */
export async function buildProgram(
  io: CliIo,
  argv: readonly string[] = [],
): Promise<{ program: Command; ctx: CliContext }> {
  const program = new Command('memory-transfer');
  const ctx = new CliContext(io, program);
  program
    .description('Learn validation-routine insights from fixes and recall them for new tasks.')
    .version(VERSION, '-V, --version')
    .option(
      '--db <path|url>',
      'the pool: a SQLite file or postgres:// URL (default: $MEMORY_TRANSFER_DB, else ./.memory-transfer/pool.db)',
    )
    .option('--tenant <org>', 'the pool tenant (default: the owner of --repo, or the only tenant in the pool)')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({
      showGlobalOptions: true,
      sortSubcommands: false,
      subcommandTerm(this: Help, cmd: Command) {
        const entry = COMMANDS.find((c) => c.name === cmd.name());
        return entry ? `${entry.name} ${entry.usage}`.trim() : Help.prototype.subcommandTerm.call(this, cmd);
      },
    })
    .configureOutput(output(io))
    .addHelpText(
      'after',
      '\nExit codes: 0 ok, 1 failed, 2 bad usage or input, 3 pool error (corrupt, locked, newer), 4 nothing recalled (--fail-empty).',
    )
    .exitOverride();
  const invoked = invokedCommand(argv);
  for (const entry of COMMANDS) {
    if (entry.name === invoked) {
      (await entry.load()).register(program, ctx);
      program.commands.find((c) => c.name() === entry.name)?.description(entry.description);
    } else {
      // listed only: never run, since a run registers the command it names
      program.command(entry.name).description(entry.description).allowUnknownOption().allowExcessArguments();
    }
  }
  for (const sub of program.commands) {
    sub.exitOverride().configureOutput(output(io));
  }
  return { program, ctx };
}

/** Help on stdout, usage errors on stderr as `memory-transfer: <message>`. */
function output(io: CliIo) {
  return {
    writeOut: (text: string) => io.out(text),
    writeErr: (text: string) => io.err(text),
    outputError: (text: string, write: (text: string) => void) =>
      write(`memory-transfer: ${text.replace(/^error: /, '')}`),
  };
}

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const { program, ctx } = await buildProgram(io, argv);
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT.ok;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander already printed its message (or the help)
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0)
        return EXIT.ok;
      return EXIT.usage;
    }
    io.err(`memory-transfer: ${describeError(error)}\n`);
    if (io.env.MEMORY_TRANSFER_DEBUG === '1' && error instanceof Error && error.stack) io.err(`${error.stack}\n`);
    return exitCodeFor(error);
  }
}
