/** The Logger port over @actions/core: lines in the job log, warnings and errors as annotations. */
import * as core from '@actions/core';
import type { Logger } from '../services/ports.js';

function line(message: string, fields?: Record<string, unknown>): string {
  return fields && Object.keys(fields).length > 0 ? `${message} ${JSON.stringify(fields)}` : message;
}

export const actionsLogger: Logger = {
  debug: (message, fields) => core.debug(line(message, fields)),
  info: (message, fields) => core.info(line(message, fields)),
  warn: (message, fields) => core.warning(line(message, fields)),
  error: (message, fields) => core.error(line(message, fields)),
};
