/**
 * Relevant insights a reader may not see (their sources are more private than its repository):
 * how every reader says so (the CLI, the MCP server, the Action, the App's comments), instead of
 * "nothing is relevant". Only a count and, where the reader is the pool's own (a local pool, the
 * organization's pool file), their ids: never their text. Pure: no zod, no I/O.
 */
import type { Visibility } from '../types.js';

export interface WithheldInsights {
  count: number;
  /** the withheld insights' ids (empty where the reader may not be told them: the App) */
  ids: string[];
  /** the visibility of the repository that asked */
  visibility: Visibility;
}

/** The most ids named (the recall API's limit). */
export const MAX_WITHHELD_IDS = 50;

/**
 * One line (plain text): how many relevant insights were withheld, why, and how to share them.
 * `poolFile`: the reader reads a pool file, which must be exported again after sharing.
 */
export function withheldLine(withheld: WithheldInsights, poolFile = false): string {
  const n = withheld.count;
  const them = n === 1 ? 'it' : 'them';
  const how =
    withheld.ids.length > 0
      ? `To let every repository of the organization see ${them}: \`memory-transfer share ID\` (ids: ${withheld.ids.join(', ')})${poolFile ? ', then export the pool file again' : ''}; ` +
        'or learn from public repositories with `memory-transfer learn --visibility public`.'
      : `A maintainer of the pool can share ${them} with every repository of the organization (\`memory-transfer share ID\`).`;
  return (
    `${n} relevant insight${n === 1 ? ' was' : 's were'} withheld: ${n === 1 ? 'its sources are' : 'their sources are'} more private than this repository (${withheld.visibility}). ` +
    how
  );
}
