/**
 * The MCP server: three tools (recall, show, report_outcome) and one resource (the top insights),
 * over any InsightSource, on the official TypeScript SDK. The same server runs over stdio
 * (`memory-transfer mcp`) and over streamable HTTP (the App's /mcp). A failure of the source
 * (a locked pool, an unreachable App, a refused vote) is a tool error with one line saying what
 * to change, never a crash of the server.
 */
import { AGENT_TASK_KINDS, readTaskKind, silenceOf, type TaskKind } from '../core/retrieval/task-kind.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/index.js';
import { MemoryTransferError, describeError } from '../core/errors.js';
import { INJECTION_PREAMBLE, inlineText, renderInjection } from '../core/rendering/render-injection.js';
import { withheldLine } from '../core/rendering/withheld.js';
import type { Logger } from '../ports/index.js';
import type { InsightSource } from './insight-source.js';
import {
  DESCRIPTIONS,
  MCP_SERVER_NAME,
  TOP_RESOURCE_SIZE,
  TOP_RESOURCE_URI,
  recallInput,
  recallOutput,
  reportOutcomeInput,
  reportOutcomeOutput,
  showInput,
  showOutput,
  type OutcomeReport,
  type RecallAnswer,
  type RecalledInsight,
  type ShownInsight,
} from './tools.js';

export interface McpServerOptions {
  logger: Logger;
  version: string;
  /** GitHub host source links may point to (default https://github.com) */
  githubUrl?: string;
  /**
   * the text of an unexpected error (not one of our typed errors) is shown to the caller (local
   * stdio: the user's own machine); the App answers "internal error" and logs it instead
   */
  exposeUnexpected?: boolean;
}

function where(item: RecalledInsight): string {
  if (item.source) return `learned in ${item.source.repo}`;
  return item.transferred ? 'learned in another repository of this organization' : 'learned in this repository';
}

function recallText({ insights: items, withheld }: RecallAnswer, kind: TaskKind): string {
  const silent = items.length === 0 && !withheld ? silenceOf(kind, AGENT_TASK_KINDS) : undefined;
  if (silent)
    return `Nothing recalled: ${silent}. Describe the failure (what you ran, what happened, what you expected) to get validation routines.`;
  if (items.length === 0) {
    return withheld
      ? `No insight this repository may see is relevant to this task. ${withheldLine(withheld)}`
      : 'No insight in the pool is relevant enough to this task. Describe the task more specifically (the failing behaviour, the kind of input) and call recall again.';
  }
  const lines = [INJECTION_PREAMBLE, ''];
  for (const item of items) {
    lines.push(`[${item.id}] ${inlineText(item.title)} (score ${item.score}; ${where(item)}; support ${item.support})`);
    lines.push(`  ${inlineText(item.description)}`);
    lines.push(`  ${inlineText(item.content)}`);
    for (const line of item.evidence) lines.push(`  evidence: ${inlineText(line)}`);
    lines.push('');
  }
  lines.push('Use show with an id for its sources; report what helped with report_outcome.');
  if (withheld) lines.push('', withheldLine(withheld));
  return lines.join('\n');
}

function showText(item: ShownInsight): string {
  const lines = [
    `[${item.id}] ${inlineText(item.title)}`,
    inlineText(item.description),
    inlineText(item.content),
    `support ${item.support}; votes +${item.votes.up}/-${item.votes.down}; outcomes ${item.outcomes.success} success, ${item.outcomes.failure} failure`,
  ];
  for (const line of item.evidence) lines.push(`evidence: ${inlineText(line)}`);
  for (const source of item.sources) {
    lines.push(
      `source: ${source.repo} ${source.kind} ${source.ref} (${source.date})${source.url ? ` ${source.url}` : ''}`,
    );
  }
  if (item.hiddenSources > 0) lines.push(`${item.hiddenSources} more source(s) this repository may not see`);
  return lines.join('\n');
}

function reportText(report: OutcomeReport): string {
  const parts = [`recorded "${report.outcome}" for ${report.recorded.length} insight(s)`];
  if (report.already.length > 0) parts.push(`already reported in this run: ${report.already.join(', ')}`);
  if (report.unknown.length > 0) parts.push(`unknown or not visible here: ${report.unknown.join(', ')}`);
  return parts.join('; ');
}

/**
 * The server asks the user nothing (no elicitation), so it validates no answer against a schema:
 * in place of the SDK's default validator (ajv, some 130 KB of the Action's MCP server), one that
 * says so, should an elicitation ever be added without a validator of its own.
 */
export const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: 'the memory-transfer MCP server asks the user nothing, so it validates no answer',
  }),
};

export function createMcpServer(source: InsightSource, options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: options.version },
    {
      jsonSchemaValidator: NO_ELICITATION,
      instructions:
        'Memory Transfer serves validation routines learned from fixes across this organization. Call recall ' +
        'when you know what you are working on (and again when you learn more), verify an insight before relying ' +
        'on it, and report_outcome once you know whether it helped.',
    },
  );

  async function guarded<T>(
    tool: string,
    call: () => Promise<T>,
    ok: (value: T) => CallToolResult,
  ): Promise<CallToolResult> {
    try {
      return ok(await call());
    } catch (error) {
      const typed = error instanceof MemoryTransferError;
      if (!typed) options.logger.error(`mcp: ${tool} failed`, { error: describeError(error) });
      const message = typed || options.exposeUnexpected ? describeError(error) : 'internal error; try again later';
      return { content: [{ type: 'text', text: `${tool}: ${message}` }], isError: true };
    }
  }

  server.registerTool(
    'recall',
    {
      title: 'Recall validation routines',
      description: DESCRIPTIONS.recall,
      inputSchema: recallInput,
      outputSchema: recallOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(
        'recall',
        () =>
          source.recall({
            task: args.task,
            ...(args.repo !== undefined ? { repo: args.repo } : {}),
            ...(args.k !== undefined ? { k: args.k } : {}),
            ...(args.level !== undefined ? { level: args.level } : {}),
          }),
        (answer) => {
          const taskKind = answer.taskKind ?? readTaskKind(args.task);
          return {
            content: [{ type: 'text', text: recallText(answer, taskKind) }],
            structuredContent: { ...answer, taskKind },
          };
        },
      ),
  );

  server.registerTool(
    'show',
    {
      title: 'Show one insight',
      description: DESCRIPTIONS.show,
      inputSchema: showInput,
      outputSchema: showOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(
        'show',
        () => source.show(args.id),
        (insight) => ({ content: [{ type: 'text', text: showText(insight) }], structuredContent: { insight } }),
      ),
  );

  server.registerTool(
    'report_outcome',
    {
      title: 'Report whether insights helped',
      description: DESCRIPTIONS.report_outcome,
      inputSchema: reportOutcomeInput,
      outputSchema: reportOutcomeOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(
        'report_outcome',
        () => source.reportOutcome({ ids: args.ids, outcome: args.outcome, ...(args.note ? { note: args.note } : {}) }),
        (report) => ({ content: [{ type: 'text', text: reportText(report) }], structuredContent: report }),
      ),
  );

  server.registerResource(
    'top-insights',
    TOP_RESOURCE_URI,
    { title: 'Top insights for this repository', description: DESCRIPTIONS.topResource, mimeType: 'text/markdown' },
    async (uri) => {
      let insights: RecalledInsight[];
      try {
        insights = await source.top(TOP_RESOURCE_SIZE);
      } catch (error) {
        // a resource has no tool result: the client gets a protocol error with the same one line
        const typed = error instanceof MemoryTransferError;
        if (!typed) options.logger.error('mcp: top insights failed', { error: describeError(error) });
        throw new Error(typed || options.exposeUnexpected ? describeError(error) : 'internal error; try again later');
      }
      const { markdown } = renderInjection(insights, {
        maxChars: 20_000,
        githubUrl: options.githubUrl ?? 'https://github.com',
      });
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/markdown',
            text: markdown || 'No insight of this organization is visible here yet.',
          },
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ insights }) },
        ],
      };
    },
  );

  return server;
}
