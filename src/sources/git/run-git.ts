/**
 * Runs the `git` binary without a shell: `gitOutput` for small answers, `gitRecords` to stream a
 * large output split on a record separator (one process for thousands of commits).
 */
import { execFile, spawn } from 'node:child_process';
import { InputError } from '../../core/errors.js';

/** Options that keep git's output stable and machine-readable whatever the user's config says. */
const GIT_CONFIG = ['-c', 'core.quotePath=false', '-c', 'log.showSignature=false', '-c', 'color.ui=false'];
const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' };

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

function missingGit(error: NodeJS.ErrnoException): InputError | undefined {
  return error.code === 'ENOENT' ? new InputError('the git command was not found on PATH') : undefined;
}

/** Runs git in dir and returns its stdout; throws GitError on a non-zero exit. */
export function gitOutput(dir: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...GIT_CONFIG, '-C', dir, ...args],
      { env: GIT_ENV, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const notFound = missingGit(error as NodeJS.ErrnoException);
        if (notFound) return reject(notFound);
        const code = typeof error.code === 'number' ? error.code : null;
        reject(new GitError(firstLine(stderr) || error.message, code, stderr));
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

interface GitProcess {
  stdout: AsyncIterable<string>;
  /** resolves when git exited 0; rejects with GitError otherwise */
  done(): Promise<void>;
  kill(): void;
}

function startGit(dir: string, args: string[], input: string | undefined): GitProcess {
  const child = spawn('git', [...GIT_CONFIG, '-C', dir, ...args], {
    env: GIT_ENV,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 8192) stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) => reject(missingGit(error) ?? error));
    child.on('close', (code) => resolve(code));
  });
  // awaited in done(); keep an early failure from being reported as unhandled meanwhile
  exited.catch(() => undefined);
  child.stdin.on('error', () => undefined);
  child.stdin.end(input ?? '');
  child.stdout.setEncoding('utf8');
  return {
    stdout: child.stdout as AsyncIterable<string>,
    async done() {
      const code = await exited;
      if (code !== 0) throw new GitError(firstLine(stderr) || `git exited with code ${code}`, code, stderr);
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}

/**
 * Streams git's stdout as records separated by `separator` (the text before the first separator
 * is dropped). Stopping the iteration early kills git. Throws GitError if git exits non-zero.
 */
export async function* gitRecords(
  dir: string,
  args: string[],
  separator: string,
  input?: string,
): AsyncGenerator<string> {
  const git = startGit(dir, args, input);
  try {
    let buffer = '';
    let started = false;
    for await (const chunk of git.stdout) {
      buffer += chunk;
      let at = buffer.indexOf(separator);
      while (at !== -1) {
        if (started) yield buffer.slice(0, at);
        started = true;
        buffer = buffer.slice(at + separator.length);
        at = buffer.indexOf(separator);
      }
    }
    await git.done();
    if (started) yield buffer;
  } finally {
    git.kill();
  }
}

/**
 * Streams git's stdout line by line (without the newline), holding one line at a time, so a
 * huge patch never sits in memory. Stopping early kills git; a non-zero exit throws GitError.
 */
export async function* gitLines(dir: string, args: string[], input?: string): AsyncGenerator<string> {
  const git = startGit(dir, args, input);
  try {
    let rest = '';
    for await (const chunk of git.stdout) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      yield* lines;
    }
    await git.done();
    if (rest.length > 0) yield rest;
  } finally {
    git.kill();
  }
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? ''
  );
}
