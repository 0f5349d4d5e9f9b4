/**
 * The review surfaces for proposed insights: the dashboard issue (task-list checkboxes a
 * maintainer ticks to approve) and the review comment on a source PR. Pure; text is escaped with
 * the injected `escape`, links go through comment-render's rules.
 */
import { renderSources, type RenderContext } from './comment-render.js';
import type { Memory } from '../types.js';

export const DASHBOARD_TITLE = 'Memory Transfer: insights to review';
export const REVIEW_COMMENT_HEADING = '#### 🧠 Memory Transfer: insights waiting for review';

const MAX_LISTED = 50;

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function renderItem(memory: Memory, ctx: RenderContext, checkbox: boolean): string {
  const head = `${checkbox ? '- [ ] ' : '- '}**${ctx.escape(oneLine(memory.title, 200))}** · \`${memory.id}\``;
  const lines = [head];
  if (memory.description.trim()) lines.push(`  ${ctx.escape(oneLine(memory.description, 300))}`);
  if (memory.content.trim()) lines.push(`  > ${ctx.escape(oneLine(memory.content, 600))}`);
  const sources = renderSources(memory, ctx);
  lines.push(`  Source: ${sources || 'a repository you cannot see'}`);
  return lines.join('\n');
}

export interface DashboardView {
  /** proposed insights the dashboard's readers may see */
  visible: Memory[];
  /** proposed insights from repositories more private than the dashboard's (not listed) */
  hidden: number;
  /** configuration problems by repository (already filtered for the dashboard's readers) */
  configProblems: { repo: string; problems: string[] }[];
}

export function renderDashboard(view: DashboardView, ctx: RenderContext): string {
  const parts = [
    'Insights that Memory Transfer learned from fixes wait here for a maintainer before comments and agents may use them.',
    'Tick a box to approve an insight (people with write access to this repository). Reject one with `/memory reject ID` in a comment. Closing this issue turns the dashboard off for good; reopen it to turn it back on.',
    '',
    `### Waiting for review (${view.visible.length + view.hidden})`,
    '',
  ];
  if (view.visible.length === 0 && view.hidden === 0) parts.push('Nothing waits for review.');
  const listed = view.visible.slice(0, MAX_LISTED);
  for (const memory of listed) parts.push(renderItem(memory, ctx, true));
  if (view.visible.length > listed.length) {
    parts.push('', `…and ${view.visible.length - listed.length} more; approve them with \`/memory approve ID\`.`);
  }
  if (view.hidden > 0) {
    parts.push(
      '',
      `${view.hidden} more ${view.hidden === 1 ? 'insight waits' : 'insights wait'} for review but came from repositories more private than this one, so ${view.hidden === 1 ? 'it is' : 'they are'} not listed here. Set \`dashboard_repo\` to a private repository to review them.`,
    );
  }
  if (view.configProblems.length > 0) {
    parts.push('', '### Configuration problems', '');
    for (const { repo, problems } of view.configProblems) {
      parts.push(
        `- ${ctx.escape(repo)}: \`.github/memory-transfer.yml\` ${problems.length === 1 ? 'has a problem' : 'has problems'}; the org defaults are used until it is fixed.`,
      );
      for (const problem of problems.slice(0, 10)) parts.push(`  - ${ctx.escape(oneLine(problem, 300))}`);
    }
  }
  return parts.join('\n');
}

/** The memory ids whose checkbox is ticked in a dashboard body. */
export function tickedIds(body: string): Set<string> {
  const ids = new Set<string>();
  for (const line of body.split(/\r?\n/)) {
    const match = /^\s*[-*]\s+\[[xX]\]\s.*?`(m[0-9a-f]{10})`/.exec(line);
    if (match?.[1]) ids.add(match[1]);
  }
  return ids;
}

/** The review comment on the PR an insight was learned from (review: comment). */
export function renderReviewComment(memories: Memory[], ctx: RenderContext): string {
  const noun = memories.length === 1 ? 'insight' : 'insights';
  return [
    REVIEW_COMMENT_HEADING,
    '',
    `Memory Transfer learned ${memories.length} ${noun} from this pull request. ${memories.length === 1 ? 'It waits' : 'They wait'} for a maintainer before comments and agents in this organization may use ${memories.length === 1 ? 'it' : 'them'}:`,
    '',
    ...memories.slice(0, MAX_LISTED).map((m) => renderItem(m, ctx, false)),
    '',
    '---',
    'People with write access: reply `/memory approve ID` to approve an insight or `/memory reject ID` to reject it.',
  ].join('\n');
}
