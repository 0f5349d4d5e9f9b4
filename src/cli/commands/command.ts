/**
 * One CLI command = one file under src/cli/commands/ exporting a CliCommand; the list in
 * ./index.ts registers them. A command parses its flags with zod (../flags.ts), calls a service
 * and prints; errors are thrown as typed errors and become one line and an exit code in main.ts.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export interface CliCommand {
  /** adds the command (with its options, help text and action) to the program */
  register(program: Command, ctx: CliContext): void;
}
