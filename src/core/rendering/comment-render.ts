/**
 * The Markdown the App writes on issues and PRs: the one suggestion comment per thread and the
 * replies to `/memory …` commands. Pure.
 *
 * Safety (docs/security.md): every piece of user or memory text goes through the injected
 * `escape` (src/security/markdown.ts); the renderer itself writes no image and no raw HTML, and
 * every link it writes points at the App's GitHub host and at a source the reader may open
 * (`mayLinkSource`).
 */
import type { Memory, Provenance, RecallHit, Requester } from '../types.js';
import { mayLinkSource } from '../visibility.js';
import { withheldLine, type WithheldInsights } from './withheld.js';

/** The first line of every suggestion comment: how the App recognises its own comment. */
export const COMMENT_HEADING = '#### 🧠 Memory Transfer: insights from other repositories';
/**
 * The hidden last line of every suggestion comment: how the App finds its own comment on a thread
 * before it posts, whatever a person or an earlier version did to the visible text.
 */
export const COMMENT_MARKER = '<!-- memory-transfer:suggestions -->';
/** The first line of every command reply. */
export const REPLY_HEADING = '#### 🧠 Memory Transfer';

export interface RenderContext {
  /** escapes user or memory text for Markdown (src/security/markdown.ts) */
  escape: (text: string) => string;
  /** `[text](url)` when the URL is on the allowed host, else the escaped text (src/security/markdown.ts) */
  link: (text: string, url: string) => string;
  /** the GitHub host links may point to, e.g. "https://github.com" */
  githubUrl: string;
  /** who reads the comment: the repository it is written in */
  requester: Requester;
}

const REPO = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;
const REF = /^[A-Za-z0-9._-]{1,100}$/;
const MAX_DESCRIPTION = 400;
const MAX_CONTENT = 1200;
const MAX_EVIDENCE = 2;

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * A URL on the GitHub host for a provenance entry, or undefined when none can be built safely.
 * Only for a source recorded with a URL in that very repository on that host (what GitHub gave
 * the App, a clone of a GitHub repository): a repository learned from a local path, another host
 * or a fix record without a URL gets no link, never one made up. The link itself is built from the
 * checked repository and reference, not copied from the recorded URL.
 */
export function sourceUrl(
  githubUrl: string,
  source: Pick<Provenance, 'repo' | 'sourceKind' | 'ref' | 'url'>,
): string | undefined {
  let base: URL;
  try {
    base = new URL(githubUrl);
  } catch {
    return undefined;
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') return undefined;
  if (!REPO.test(source.repo)) return undefined;
  const root = `${base.origin}${base.pathname.replace(/\/+$/, '')}/${source.repo}`;
  if (!source.url || !`${source.url}/`.toLowerCase().startsWith(`${root}/`.toLowerCase())) return undefined;
  if (!REF.test(source.ref)) return root;
  switch (source.sourceKind) {
    case 'pull_request':
      return `${root}/pull/${source.ref}`;
    case 'issue':
      return `${root}/issues/${source.ref}`;
    case 'commit':
      return `${root}/commit/${source.ref}`;
    default:
      return root;
  }
}

/** "Source: [acme/api#12](…), another repository of this organization" — names only what the reader may open. */
export function renderSources(memory: Memory, ctx: RenderContext): string {
  const seen = new Set<string>();
  const linked: string[] = [];
  let hidden = 0;
  for (const source of memory.provenance) {
    const key = `${source.repo.toLowerCase()}#${source.ref}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const url = mayLinkSource(source, ctx.requester) ? sourceUrl(ctx.githubUrl, source) : undefined;
    if (!url) {
      hidden += 1;
      continue;
    }
    const label =
      source.sourceKind === 'commit' ? `${source.repo}@${source.ref.slice(0, 7)}` : `${source.repo}#${source.ref}`;
    if (linked.length < 3) linked.push(ctx.link(label, url));
  }
  const parts = [...linked];
  if (hidden > 0) parts.push(hidden === 1 ? 'a repository you cannot see' : `${hidden} sources you cannot see`);
  return parts.join(', ');
}

function renderStanding(memory: Memory): string {
  const bits = [`learned from ${memory.support} fix${memory.support === 1 ? '' : 'es'}`];
  if (memory.votes.up || memory.votes.down) bits.push(`👍 ${memory.votes.up} · 👎 ${memory.votes.down}`);
  return bits.join(' · ');
}

function renderInsight(hit: RecallHit, index: number, ctx: RenderContext): string {
  const m = hit.memory;
  const lines = [`**${index + 1}. ${ctx.escape(oneLine(m.title, 200))}** · \`${m.id}\``, ''];
  if (m.description.trim()) lines.push(ctx.escape(oneLine(m.description, MAX_DESCRIPTION)), '');
  const content = m.content.trim().slice(0, MAX_CONTENT);
  if (content) {
    for (const line of content.split(/\r?\n/)) lines.push(`> ${ctx.escape(line.trim())}`);
    lines.push('');
  }
  for (const evidence of m.evidence.slice(0, MAX_EVIDENCE))
    lines.push(`- Evidence: ${ctx.escape(oneLine(evidence, 200))}`);
  const sources = renderSources(m, ctx);
  lines.push(`- Source: ${sources || 'a repository you cannot see'} · ${renderStanding(m)}`);
  return lines.join('\n');
}

export const COMMENT_FOOTER = [
  '---',
  'Did one of these help? React 👍 or 👎 to this comment: votes rank the insights for the whole organization.',
  'Commands: `/memory why` (scores and sources) · `/memory search TEXT` · `/memory approve ID` · `/memory reject ID` · `/memory forget ID` · `/memory help`',
].join('\n');

/**
 * How many relevant insights this repository may not see, and how to share them: a count, never
 * which (our own sentence: no text of a memory in it).
 */
function withheldParagraph(withheld: WithheldInsights | undefined): string[] {
  return withheld ? [withheldLine({ ...withheld, ids: [] }), ''] : [];
}

/**
 * The suggestion comment for up to `max` hits (the caller has already applied the relevance bar),
 * and how many relevant insights were withheld from this repository, if any.
 */
export function renderSuggestionComment(
  hits: RecallHit[],
  ctx: RenderContext,
  max = 3,
  withheld?: WithheldInsights,
): string {
  const shown = hits.slice(0, Math.min(max, 3));
  const noun = shown.length === 1 ? 'insight' : 'insights';
  const parts = [
    COMMENT_HEADING,
    '',
    `Memory Transfer found ${shown.length} ${noun} learned while fixing problems in other repositories of this organization that may help here.`,
    '',
    ...shown.map((hit, i) => `${renderInsight(hit, i, ctx)}\n`),
    ...withheldParagraph(withheld),
    COMMENT_FOOTER,
    COMMENT_MARKER,
  ];
  return parts.join('\n');
}

/** What an earlier suggestion comment becomes when nothing clears the relevance bar any more. */
export function renderNoLongerRelevant(withheld?: WithheldInsights): string {
  return [
    COMMENT_HEADING,
    '',
    withheld
      ? 'No insight this repository may see clears the relevance bar for the current text of this thread.'
      : 'No insight from other repositories clears the relevance bar for the current text of this thread.',
    '',
    ...withheldParagraph(withheld),
    COMMENT_FOOTER,
    COMMENT_MARKER,
  ].join('\n');
}

/** A hit as remembered with the comment, for `/memory why`. */
export interface ShownHit {
  id: string;
  score: number;
  parts: RecallHit['parts'];
}

function fmt(n: number): string {
  return Number.isFinite(n) ? n.toFixed(3) : '0';
}

/** `/memory why`: the scores and sources behind the suggestion comment on this thread. */
export function renderWhy(shown: ShownHit[], memories: Memory[], ctx: RenderContext): string {
  if (shown.length === 0) {
    return `There is no suggestion from Memory Transfer on this thread, so there is nothing to explain.`;
  }
  const byId = new Map(memories.map((m) => [m.id, m]));
  const lines = [
    'Why these insights were shown (fused score = rank fusion of the lexical and vector matches, weighted by the routine and quality priors):',
    '',
  ];
  for (const hit of shown) {
    const m = byId.get(hit.id);
    if (!m) {
      lines.push(`- \`${hit.id}\`: no longer in the pool`);
      continue;
    }
    const p = hit.parts;
    lines.push(
      `- \`${m.id}\` **${ctx.escape(oneLine(m.title, 200))}** (${m.status})`,
      `  - score ${fmt(hit.score)} = fused ${fmt(p.fused)} (lexical ${fmt(p.lexical)}, vector ${fmt(p.vector)}, routine ${fmt(p.routine)}, prior ${fmt(p.prior)})`,
      `  - ${renderStanding(m)} · used ${m.uses} time${m.uses === 1 ? '' : 's'}`,
      `  - Sources: ${renderSources(m, ctx) || 'a repository you cannot see'}`,
    );
  }
  return lines.join('\n');
}

/** `/memory search TEXT`: the hits the requester may see. */
export function renderSearch(query: string, hits: RecallHit[], ctx: RenderContext): string {
  const head = `Search for “${ctx.escape(oneLine(query, 200))}”:`;
  if (hits.length === 0) return `${head} no insight visible here clears the relevance bar.`;
  const lines = hits.map(
    (hit) =>
      `- \`${hit.memory.id}\` **${ctx.escape(oneLine(hit.memory.title, 200))}** — ${ctx.escape(oneLine(hit.memory.description, 200))} (score ${fmt(hit.score)}; ${renderSources(hit.memory, ctx) || 'a repository you cannot see'})`,
  );
  return [head, '', ...lines].join('\n');
}

export const HELP_TEXT = [
  'Commands, one per line, in a comment on any issue or pull request:',
  '',
  '- `/memory approve ID`: make a proposed insight active (people with write access)',
  '- `/memory reject ID`: reject an insight; it is never shown again (people with write access)',
  '- `/memory forget ID`: delete an insight everywhere (people with write access)',
  '- `/memory search TEXT`: the insights visible here that match TEXT',
  '- `/memory why`: the scores and sources behind the suggestion on this thread',
  '- `/memory help`: this list',
  '',
  'React 👍 or 👎 to a suggestion comment to vote on its insights.',
].join('\n');

/** The single reply comment to a comment's commands: one section per command. */
export function renderReply(sections: string[]): string {
  return [REPLY_HEADING, ...sections].join('\n\n');
}
