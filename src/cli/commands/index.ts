/**
 * Every command of `memory-transfer`, in the order `--help` lists them. To add one, write
 * src/cli/commands/<name>.ts exporting a CliCommand and add it here.
 */
import { approveCommand } from './approve.js';
import { archiveStaleCommand } from './archive-stale.js';
import { auditCommand } from './audit.js';
import { backfillCommand } from './backfill.js';
import type { CliCommand } from './command.js';
import { editCommand } from './edit.js';
import { evalCommand } from './eval.js';
import { exportCommand } from './export.js';
import { forgetCommand } from './forget.js';
import { importCommand } from './import.js';
import { learnCommand } from './learn.js';
import { listCommand } from './list.js';
import { mcpCommand } from './mcp.js';
import { recallCommand } from './recall.js';
import { reembedCommand } from './reembed.js';
import { rejectCommand } from './reject.js';
import { reportCommand } from './report.js';
import { restoreCommand } from './restore.js';
import { serveCommand } from './serve.js';
import { shareCommand } from './share.js';
import { showCommand } from './show.js';
import { statsCommand } from './stats.js';
import { tenantCommand } from './tenant.js';

export const COMMANDS: CliCommand[] = [
  learnCommand,
  recallCommand,
  listCommand,
  showCommand,
  approveCommand,
  rejectCommand,
  forgetCommand,
  restoreCommand,
  editCommand,
  shareCommand,
  exportCommand,
  importCommand,
  statsCommand,
  tenantCommand,
  reportCommand,
  auditCommand,
  archiveStaleCommand,
  serveCommand,
  mcpCommand,
  backfillCommand,
  reembedCommand,
  evalCommand,
];
