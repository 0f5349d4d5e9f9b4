/** The job summary: a table of what was injected, or one line saying why nothing was. Pure. */
import type { InjectedInsight } from '../core/rendering/render-injection.js';
import { AGENT_TASK_KINDS, readTaskKind, silenceOf } from '../core/retrieval/task-kind.js';
import { escapeMarkdown, markdownLink } from '../security/markdown.js';
import type { ActionResult } from './main.js';
import { withheldLine } from '../core/rendering/withheld.js';

const cell = escapeMarkdown;

function source(item: InjectedInsight, githubUrl: string): string {
  if (!item.source) return item.transferred ? 'another repository of this organization' : 'this repository';
  return item.source.url ? markdownLink(item.source.repo, item.source.url, githubUrl) : cell(item.source.repo);
}

export function renderSummary(
  result: ActionResult,
  mode: 'server' | 'pool',
  dryRun: boolean,
  githubUrl = 'https://github.com',
): string {
  const lines = ['### Memory Transfer', ''];
  const where = `target ${cell(result.target)}${dryRun ? ' (dry run: nothing written)' : ''}`;
  if (result.recallError) {
    lines.push(`Recall failed, the job continued without insights: ${cell(result.recallError)}`);
  } else if (result.refusal) {
    lines.push(`No insight was injected: ${cell(result.refusal)} (${where}).`);
  } else if (result.insights.length === 0 && result.withheld) {
    lines.push(`No insight was injected (${mode === 'pool' ? 'pool file' : 'server'}, ${where}).`, '');
    lines.push(withheldLine(result.withheld, mode === 'pool'));
  } else if (result.insights.length === 0) {
    const kind = result.taskKind ?? readTaskKind(result.task);
    const silent = silenceOf(kind, AGENT_TASK_KINDS);
    lines.push(
      silent
        ? `No insight was injected: ${silent} (${mode === 'pool' ? 'pool file' : 'server'}, ${where}).`
        : `No insight cleared the relevance bar for this ${kind === 'feature' ? 'feature request' : 'task'} (${mode === 'pool' ? 'pool file' : 'server'}, ${where}).`,
    );
  } else {
    const n = result.insights.length;
    lines.push(
      `Injected ${n} insight${n === 1 ? '' : 's'} from the ${mode === 'pool' ? 'pool file' : 'server'} into ${where}.`,
      '',
    );
    lines.push('| # | Insight | Score | Source | Id |', '| ---: | --- | ---: | --- | --- |');
    for (const [index, item] of result.insights.entries()) {
      lines.push(
        `| ${index + 1} | ${cell(item.title)} | ${item.score.toFixed(2)} | ${source(item, githubUrl)} | \`${item.id}\` |`,
      );
    }
  }
  if (result.insights.length > 0 && result.withheld) lines.push('', withheldLine(result.withheld, mode === 'pool'));
  const written = result.files.filter((f) => f.change !== 'unchanged').map((f) => `${cell(f.path)} (${f.change})`);
  if (written.length > 0) lines.push('', `Files: ${written.join(', ')}`);
  if (result.mcp) {
    const configured = result.mcp.files.map((f) => `${cell(f.path)} (${f.change})`);
    lines.push('', `MCP server for the agent: ${configured.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
