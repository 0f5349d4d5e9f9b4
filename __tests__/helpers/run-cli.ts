// Runs the memory-transfer command in-process, capturing what it prints.
import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  more: Pick<CliIo, 'stdin' | 'confirm'> = {},
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd, ...more };
  const code = await main(args, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}
