/**
 * Progress on long work, on stderr only: a bar when stderr is a terminal, otherwise a plain line
 * every few seconds (CI logs stay readable).
 */
import cliProgress from 'cli-progress';
import type { CliIo } from './io.js';

export interface Progress {
  update(done: number, total?: number): void;
  stop(): void;
}

const PLAIN_EVERY_MS = 5000;

export function startProgress(io: CliIo, label: string, total: number | undefined, quiet = false): Progress {
  if (quiet) return { update: () => undefined, stop: () => undefined };
  if (io.tty) {
    const bar = new cliProgress.SingleBar(
      {
        stream: io.tty,
        format: `${label} [{bar}] {value}/{total} {eta_formatted}`,
        hideCursor: true,
        clearOnComplete: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total ?? 0, 0);
    return {
      update: (done, newTotal) => {
        if (newTotal !== undefined && newTotal !== bar.getTotal()) bar.setTotal(newTotal);
        bar.update(done);
      },
      stop: () => bar.stop(),
    };
  }
  let last = Date.now();
  let latestTotal = total;
  return {
    update: (done, newTotal) => {
      latestTotal = newTotal ?? latestTotal;
      if (Date.now() - last < PLAIN_EVERY_MS) return;
      last = Date.now();
      io.err(`${label}: ${done}${latestTotal === undefined ? '' : `/${latestTotal}`}\n`);
    },
    // the command's summary line follows
    stop: () => undefined,
  };
}
