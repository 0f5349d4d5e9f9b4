import { createInterface } from 'node:readline/promises';
import { isatty } from 'node:tty';

/**
 * Where the CLI reads and writes: the real process, or a capture in tests (main(argv, io)).
 * Results go to stdout, progress and diagnostics to stderr.
 */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** the stderr stream when it is a terminal (progress bar), else undefined */
  tty?: NodeJS.WriteStream;
  env: Record<string, string | undefined>;
  cwd: string;
  /**
   * standard input, chunk by chunk (for `-` arguments): a reader takes what it uses and stops, so a
   * task of any size never sits whole in memory; absent when there is none to read
   */
  stdin?: () => AsyncIterable<Uint8Array | string>;
  /** asks a yes/no question on the terminal; absent when there is no terminal to ask (then --yes is needed) */
  confirm?: (question: string) => Promise<boolean>;
}

/**
 * The real process. Nothing is opened before it is used: a terminal is told with isatty() rather
 * than process.stdin.isTTY, which would open standard input (and, like process.stderr, cost a
 * command that never reads it part of its start: docs/quality.md, "CLI start").
 */
export function processIo(): CliIo {
  const io: CliIo = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    stdin: () => process.stdin,
  };
  if (isatty(2)) Object.defineProperty(io, 'tty', { get: () => process.stderr, enumerable: true });
  if (isatty(0) && isatty(2)) {
    io.confirm = async (question: string) => {
      const prompt = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return /^y(es)?$/i.test((await prompt.question(`${question} [y/N] `)).trim());
      } finally {
        prompt.close();
      }
    };
  }
  return io;
}
