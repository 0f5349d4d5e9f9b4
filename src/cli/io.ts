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
}

export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    ...(process.stderr.isTTY ? { tty: process.stderr } : {}),
    env: process.env,
    cwd: process.cwd(),
  };
}
