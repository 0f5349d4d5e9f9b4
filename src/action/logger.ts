/** The Logger port over the runner's commands: lines in the job log, warnings and errors as annotations. */
import type { Logger } from '../ports/index.js';
import type { WorkflowCommands } from './workflow-commands.js';

function line(message: string, fields?: Record<string, unknown>): string {
  return fields && Object.keys(fields).length > 0 ? `${message} ${JSON.stringify(fields)}` : message;
}

export function workflowLogger(commands: WorkflowCommands): Logger {
  return {
    debug: (message, fields) => commands.debug(line(message, fields)),
    info: (message, fields) => commands.info(line(message, fields)),
    warn: (message, fields) => commands.warning(line(message, fields)),
    error: (message, fields) => commands.error(line(message, fields)),
  };
}
