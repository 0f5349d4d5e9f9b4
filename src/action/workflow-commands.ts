/**
 * The few runner commands a pool-file run needs (log lines, annotations, outputs, the job
 * summary, failing the step), written the way @actions/core writes them. @actions/core itself
 * pulls in its HTTP client (undici, ~400 KB) at import, which was a quarter of a pool-file run's
 * cold start; it is loaded only for what needs it: the OIDC token in server mode.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { EOL } from 'node:os';

export interface WorkflowCommands {
  info(message: string): void;
  debug(message: string): void;
  warning(message: string): void;
  error(message: string): void;
  setOutput(name: string, value: string): void;
  /** exit code 1 and an error annotation */
  setFailed(message: string): void;
  /** appends Markdown to the job summary; nothing without GITHUB_STEP_SUMMARY */
  appendSummary(markdown: string): Promise<void>;
}

/** A command's message, escaped like @actions/core's escapeData. */
export function escapeData(message: string): string {
  return message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * One output in the GITHUB_OUTPUT file format: `name<<delimiter`, the value, the delimiter.
 * What keeps a value from ending its entry early and writing other outputs is that the delimiter
 * appears nowhere in it (checked, as @actions/core checks it); a random suffix makes such a value
 * unlikely to begin with. Not a UUID from node:crypto: loading it cost a pool-file run about a
 * fifth of a bare `node -e 0` (docs/quality.md, "Action start").
 */
export function outputEntry(
  name: string,
  value: string,
  delimiter = `ghadelimiter_${randomWord()}${randomWord()}`,
): string {
  if (name.includes(delimiter) || value.includes(delimiter)) {
    throw new Error(`output ${name}: the value contains its own delimiter`);
  }
  return `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`;
}

/** Eight random base-36 characters. */
function randomWord(): string {
  return Math.random().toString(36).slice(2, 10).padEnd(8, '0');
}

export function workflowCommands(
  env: NodeJS.ProcessEnv,
  write: (text: string) => void = (text) => void process.stdout.write(text),
  setExitCode: (code: number) => void = (code) => {
    process.exitCode = code;
  },
): WorkflowCommands {
  const command = (name: string, message: string) => write(`::${name}::${escapeData(message)}${EOL}`);
  return {
    info: (message) => write(`${message}${EOL}`),
    debug: (message) => command('debug', message),
    warning: (message) => command('warning', message),
    error: (message) => command('error', message),
    setOutput(name, value) {
      const file = env.GITHUB_OUTPUT;
      if (!file) {
        // outside a runner (or an old one): the deprecated stdout command, as @actions/core does
        write(`${EOL}::set-output name=${name}::${escapeData(value)}${EOL}`);
        return;
      }
      if (!existsSync(file)) throw new Error(`Missing file at path: ${file}`);
      appendFileSync(file, outputEntry(name, value), 'utf8');
    },
    setFailed(message) {
      setExitCode(1);
      command('error', message);
    },
    async appendSummary(markdown) {
      const file = env.GITHUB_STEP_SUMMARY;
      if (!file) return;
      await appendFile(file, `${markdown}${EOL}`, 'utf8');
    },
  };
}
