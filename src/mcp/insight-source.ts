/**
 * What the MCP server asks its insights of: a pool (a SQLite/PostgreSQL store, a pool file, or the
 * App's own store behind /mcp) seen as one requester (pool-source.ts), or the App's /mcp endpoint
 * reached over HTTP with the run's OIDC token (remote-source.ts). The server (server.ts) only
 * turns tool calls into these methods and their answers into MCP results.
 */
import type { MemoryLevel } from '../core/types.js';
import type { AgentOutcome } from '../services/agent-report.js';
import type { OutcomeReport, RecallAnswer, RecalledInsight, ShownInsight } from './tools.js';

export interface RecallQuery {
  task: string;
  repo?: string;
  k?: number;
  level?: MemoryLevel;
}

export interface OutcomeQuery {
  ids: string[];
  outcome: AgentOutcome;
  note?: string;
}

export interface InsightSource {
  /** where the insights come from, for the log line at start (no secret in it) */
  readonly label: string;
  /** the insights, and how many relevant ones the caller's repository may not see */
  recall(query: RecallQuery): Promise<RecallAnswer>;
  /** NotFoundError for an id that does not exist or that the caller may not see (the same answer) */
  show(id: string): Promise<ShownInsight>;
  /** AuthError (403) when this run may not vote: a fork's, an outsider's, a read-only pool file */
  reportOutcome(query: OutcomeQuery): Promise<OutcomeReport>;
  /** the insights the caller may see with the best standing, for the top resource */
  top(k: number): Promise<RecalledInsight[]>;
}
