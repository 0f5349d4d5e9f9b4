/**
 * The CLI's Logger port: warnings and errors on stderr, one line each; debug and info only with
 * MEMORY_TRANSFER_DEBUG=1.
 */
import { redactingLogger } from '../security/redact.js';
import type { Logger } from '../ports/index.js';
import type { CliIo } from './io.js';

export function createCliLogger(io: CliIo): Logger {
  const debug = io.env.MEMORY_TRANSFER_DEBUG === '1';
  const line = (level: string, message: string, fields?: Record<string, unknown>) => {
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    io.err(`memory-transfer: ${level}: ${message}${extra}\n`);
  };
  // messages and fields cleared of secrets (a git error may quote a remote URL with credentials)
  return redactingLogger({
    debug: (message, fields) => debug && line('debug', message, fields),
    info: (message, fields) => debug && line('info', message, fields),
    warn: (message, fields) => line('warning', message, fields),
    error: (message, fields) => line('error', message, fields),
  });
}
