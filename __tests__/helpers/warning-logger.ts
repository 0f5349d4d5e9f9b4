import type { Logger } from '../../src/ports/index.js';

/** A logger that keeps the warnings it is given (and drops the rest), for assertions. */
export function warningLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message) => warnings.push(message),
    error: () => undefined,
  };
  return { logger, warnings };
}
