/**
 * An agent's own report on the insights it was given (the MCP `report_outcome` tool): "helped"
 * and "wrong" become a success or a failure on each insight through governance's recordOutcome,
 * the path run conclusions take (services/usage.ts); "not_relevant" is kept but moves no outcome
 * (a miss of recall says nothing about whether the routine is right). Once per run per insight:
 * a second report for the same run and insight changes nothing, whatever it says.
 */
import type { Requester } from '../core/types.js';
import { maySee } from '../core/visibility.js';
import { redactKnownPatterns } from '../security/redact.js';
import type { Store } from '../store/store.js';
import { FEEDBACK_ACTOR, recordOutcome } from './governance.js';
import type { Clock, Logger } from '../ports/index.js';
import { runRef } from './usage.js';

export const AGENT_OUTCOMES = ['helped', 'not_relevant', 'wrong'] as const;
export type AgentOutcome = (typeof AGENT_OUTCOMES)[number];

export interface AgentReportDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
}

export interface AgentReport {
  /** who reports: tenant, the repository of the run and its visibility */
  requester: Requester & { repo: string };
  /** the workflow run (or local session) the agent works in */
  runId: string;
  ids: string[];
  outcome: AgentOutcome;
  /** a short free-text reason, kept (capped, known secret patterns removed) with the report */
  note?: string;
}

export interface AgentReportResult {
  /** ids whose report was recorded now */
  recorded: string[];
  /** ids this run had already reported (nothing changed) */
  already: string[];
  /** ids that do not exist or that the requester may not see (nothing changed) */
  unknown: string[];
}

const OUTCOME_OF: Record<AgentOutcome, 'success' | 'failure' | undefined> = {
  helped: 'success',
  wrong: 'failure',
  not_relevant: undefined,
};

/** The state key that makes a report count once per run and insight. */
export function agentReportKey(tenant: string, repo: string, runId: string, memoryId: string): string {
  return `agent-report:${tenant.toLowerCase()}:${runRef(repo, runId)}:${memoryId}`;
}

export async function recordAgentReport(deps: AgentReportDeps, report: AgentReport): Promise<AgentReportResult> {
  const { tenant, repo } = report.requester;
  const note = report.note ? redactKnownPatterns(report.note.slice(0, 500)) : '';
  const result: AgentReportResult = { recorded: [], already: [], unknown: [] };
  await deps.store.transaction(async () => {
    const ids = [...new Set(report.ids)];
    const found = new Map((await deps.store.getMemories(tenant, ids)).map((m) => [m.id, m]));
    const now = deps.clock.now();
    for (const id of ids) {
      const memory = found.get(id);
      if (!memory || !maySee(memory, report.requester)) {
        result.unknown.push(id);
        continue;
      }
      const key = agentReportKey(tenant, repo, report.runId, id);
      if ((await deps.store.getState(key)) !== undefined) {
        result.already.push(id);
        continue;
      }
      const outcome = OUTCOME_OF[report.outcome];
      if (outcome) await recordOutcome(deps.store, tenant, id, outcome, { actor: FEEDBACK_ACTOR, now });
      await deps.store.setState(key, JSON.stringify({ outcome: report.outcome, at: now.toISOString(), note }));
      result.recorded.push(id);
    }
  });
  if (result.recorded.length > 0) {
    deps.logger.info('agent report recorded', {
      tenant,
      repo,
      run: report.runId,
      outcome: report.outcome,
      ids: result.recorded,
    });
  }
  return result;
}
