/**
 * The report page: the report model (./report-model.ts) as one self-contained HTML document
 * (styles and the one script inlined, charts as inline SVG, no font, image or request to any
 * host). The offline file carries its own Content-Security-Policy (hashes, no network at all);
 * the dashboard serves the same page with a nonce and adds the forms of the write actions.
 */
import { createHash } from 'node:crypto';
import { barChart, escapeHtml, heatMap, PALETTE, type HeatCell } from './report-charts.js';
import type { InsightView, ReportModel, TimeFigure } from './report-model.js';
import { REPORT_SCRIPT } from './report-script.js';

export const REPORT_STYLE = `
:root { color-scheme: light; --ink: #111827; --muted: #4b5563; --line: #d1d5db; --accent: #0b5394; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
a { color: var(--accent); }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; }
header.top { background: #0b2545; color: #fff; padding: 16px 24px; }
header.top h1 { margin: 0; font-size: 22px; }
header.top p { margin: 4px 0 0; color: #e5e7eb; }
header.top a { color: #fff; }
header.top form { display: inline; }
nav.sections { padding: 8px 24px; border-bottom: 1px solid var(--line); }
nav.sections a { margin-right: 16px; }
main { padding: 16px 24px 48px; max-width: 1200px; }
section.part { margin-top: 24px; }
h2 { font-size: 19px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 16px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; padding: 0; list-style: none; }
.cards li { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.cards strong { display: block; font-size: 22px; }
figure.chart { margin: 16px 0 24px; overflow-x: auto; }
figcaption { color: var(--muted); max-width: 70em; }
.chart-svg text { font: 11px system-ui, sans-serif; fill: #1f2937; }
.chart-svg text.on-dark { fill: #ffffff; }
details.numbers { margin-top: 6px; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
thead th button { font: inherit; font-weight: 600; background: none; border: 0; padding: 0; color: var(--accent); cursor: pointer; text-decoration: underline; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
.controls { display: flex; gap: 16px; align-items: end; flex-wrap: wrap; }
.controls label { display: block; font-weight: 600; }
input, select, textarea, button { font: inherit; }
input[type="search"], textarea, input[type="text"] { border: 1px solid #6b7280; border-radius: 4px; padding: 4px 6px; }
textarea { width: 100%; min-height: 4em; }
.status { display: inline-block; padding: 0 6px; border-radius: 4px; border: 1px solid currentColor; }
.status-active { color: #065f46; } .status-proposed { color: #92400e; } .status-rejected { color: #991b1b; } .status-archived { color: #374151; }
.insight-detail { border: 2px solid var(--accent); border-radius: 6px; padding: 8px 16px; margin: 16px 0; }
.insight-detail:not(:target) { display: none; }
.actions { display: flex; gap: 12px; flex-wrap: wrap; align-items: start; margin-top: 8px; }
.actions form { border: 1px solid var(--line); border-radius: 6px; padding: 8px; }
.actions button { background: var(--accent); color: #fff; border: 0; border-radius: 4px; padding: 4px 12px; cursor: pointer; }
.actions form.danger button { background: #991b1b; }
.notice { border: 1px solid #065f46; background: #ecfdf5; padding: 8px 12px; border-radius: 6px; }
.notice.error { border-color: #991b1b; background: #fef2f2; }
.empty { color: var(--muted); font-style: italic; }
.muted { color: var(--muted); }
footer { padding: 0 24px 24px; }
`;

/** The Content-Security-Policy source of an inline block: its SHA-256 in base64. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The policy of the offline file: nothing but its own inline style and script; no request at all. */
export function offlinePolicy(): string {
  return [
    "default-src 'none'",
    `style-src ${cspHash(REPORT_STYLE)}`,
    `script-src ${cspHash(REPORT_SCRIPT)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The policy of a served page (a header; the same nonce is on its style and script). */
export function servedPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface PageChrome {
  /** served pages: the nonce of the inline style and script (absent: the offline file, with its meta policy) */
  nonce?: string;
  /** served pages: who is signed in, and the sign-out form */
  account?: { login: string; signOutPath: string; csrfToken: string };
  /** a message after an action */
  notice?: { text: string; error?: boolean };
}

/** What goes in a page: the document title, the banner, and the landmarks after it. */
export interface PageParts {
  title: string;
  heading: string;
  subtitle: string;
  /** a navigation bar before the main content */
  nav?: string;
  /** the main content (the notice of `chrome` goes first in it) */
  main: string;
  footer?: string;
  /** the inline script (allowed by the nonce, or by its hash in the offline policy) */
  script?: string;
}

/** The HTML document around a page: the same style, landmarks and header on every page. */
export function renderShell(parts: PageParts, chrome: PageChrome): string {
  const nonce = chrome.nonce ? ` nonce="${escapeHtml(chrome.nonce)}"` : '';
  const meta = chrome.nonce
    ? ''
    : `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(offlinePolicy())}">`;
  const account = chrome.account
    ? ` · signed in as ${escapeHtml(chrome.account.login)} <form method="post" action="${escapeHtml(chrome.account.signOutPath)}">` +
      `<input type="hidden" name="csrf" value="${escapeHtml(chrome.account.csrfToken)}"><button type="submit">Sign out</button></form>`
    : '';
  const notice = chrome.notice
    ? `<div class="notice${chrome.notice.error ? ' error' : ''}" role="status">${escapeHtml(chrome.notice.text)}</div>`
    : '';
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    meta,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="same-origin">',
    `<title>${escapeHtml(parts.title)}</title>`,
    `<style${nonce}>${REPORT_STYLE}</style>`,
    '</head>',
    '<body>',
    '<a class="skip" href="#main">Skip to the content</a>',
    `<header class="top"><h1>${escapeHtml(parts.heading)}</h1><p>${escapeHtml(parts.subtitle)}${account}</p></header>`,
    parts.nav ?? '',
    `<main id="main">${notice}`,
    parts.main,
    '</main>',
    parts.footer ?? '',
    parts.script ? `<script${nonce}>${parts.script}</script>` : '',
    '</body>',
    '</html>',
  ].join('\n');
}

/** The rows of a figure over time: one per period, one column per series. */
function periodRows(figure: TimeFigure): (string | number)[][] {
  return figure.periods.map((period, i) => [period, ...figure.series.map((s) => s.values[i] ?? 0)]);
}

const STATUS_COLORS: Record<string, string> = {
  active: '#009E73',
  proposed: '#E69F00',
  rejected: '#D55E00',
  archived: '#7a7a7a',
};

function transferFigure(model: ReportModel): string {
  const { sources, receivers, cells } = model.transfer;
  const heat: HeatCell[] = cells.map((c) => ({
    row: c.source,
    column: c.receiver,
    value: c.uses,
    label: `${c.source} → ${c.receiver}: ${c.uses} uses, ${c.up} up-votes, ${c.down} down-votes`,
  }));
  const busiest = [...cells].sort((a, b) => b.uses - a.uses)[0];
  const summary =
    cells.length === 0
      ? 'No insight was shown or injected in this period.'
      : `${model.totals.uses} uses of insights learned in ${sources.length} source repositories, received by ${receivers.length} repositories; ` +
        `the busiest pair is ${busiest?.source} → ${busiest?.receiver} with ${busiest?.uses} uses. Each cell prints the uses of one pair; its tooltip and the table add the up- and down-votes.`;
  return heatMap(
    { id: 'transfer', title: 'Transfer matrix: source repository × receiving repository', summary },
    sources,
    receivers,
    heat,
    {
      caption: 'Uses and votes per source and receiving repository',
      head: ['source → receiver', 'uses', 'up-votes', 'down-votes'],
      rows: cells.map((c) => [`${c.source} → ${c.receiver}`, c.uses, c.up, c.down]),
    },
    'No insight was shown or injected in this period.',
  );
}

function routinesFigure(model: ReportModel): string {
  const top = model.routines[0];
  const summary = top
    ? `${plural(model.fixes, 'fix', 'fixes')} behind ${plural(model.totals.insights, 'insight')} of ${plural(model.routines.length, 'routine kind')}; ` +
      `the org relearns "${top.routine}" most: ${plural(top.fixes, 'fix', 'fixes')} behind ${plural(top.insights, 'insight')}. ` +
      'A fix behind insights of several kinds counts once, under the first insight learned from it.'
    : 'No insight yet.';
  return barChart(
    { id: 'routines', title: 'Routines the org relearns', summary },
    model.routines.map((r) => r.routine),
    [
      { name: 'insights', values: model.routines.map((r) => r.insights), color: PALETTE[0] as string },
      { name: 'supporting fixes', values: model.routines.map((r) => r.fixes), color: PALETTE[1] as string },
    ],
    {
      stacked: false,
      emptyMessage: 'No insight yet.',
      data: {
        caption: 'Insights and supporting fixes per routine kind',
        head: ['routine', 'insights', 'supporting fixes'],
        rows: model.routines.map((r) => [r.routine, r.insights, r.fixes]),
      },
    },
  );
}

function routineTimelineFigure(model: ReportModel): string {
  const figure = model.routineTimeline;
  const rows = periodRows(figure);
  const drawn = figure.series.reduce((n, s) => n + s.values.reduce((a, b) => a + b, 0), 0);
  const shown =
    drawn === model.fixes
      ? `All ${plural(model.fixes, 'fix', 'fixes')} behind an insight`
      : `${drawn} of the ${plural(model.fixes, 'fix', 'fixes')} behind an insight`;
  const span = figure.periods.length > 0 ? `, from ${figure.periods[0]} to ${figure.periods.at(-1)},` : '';
  return barChart(
    {
      id: 'routine-timeline',
      title: 'Supporting fixes per month and routine',
      summary:
        `${shown}${span} by the month of the fix, stacked by routine kind: a routine that keeps coming back is one the org keeps relearning.` +
        notDrawnText(model.fixesNotDrawn),
    },
    figure.periods,
    figure.series.map((s, i) => ({ name: s.name, values: s.values, color: PALETTE[i % PALETTE.length] as string })),
    {
      stacked: true,
      emptyMessage: 'No dated fix in this period.',
      data: {
        caption: 'Supporting fixes per month and routine',
        head: ['month', ...figure.series.map((s) => s.name)],
        rows,
      },
    },
  );
}

/** "1 fix", "2 fixes". */
function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The sentence on the fixes the monthly chart leaves out (none: empty). */
function notDrawnText(left: ReportModel['fixesNotDrawn']): string {
  const parts = [
    left.beforeSince > 0 ? `${left.beforeSince} dated before ${left.since?.slice(0, 10) ?? 'the period'}` : '',
    left.beforeFirstMonth > 0 ? `${left.beforeFirstMonth} dated before the first month shown (12 at most)` : '',
    left.undated > 0 ? `${left.undated} with no date` : '',
  ].filter(Boolean);
  return parts.length > 0 ? ` Not drawn: ${parts.join('; ')}.` : '';
}

/** What the "unused" list means, in one true sentence. */
function activeUseText(model: ReportModel): string {
  const { active, usedRecently, learnedRecently } = model.activeUse;
  const days = model.unusedDays;
  if (active === 0) return 'No insight is active.';
  const parts = [
    `${usedRecently} of the ${plural(active, 'active insight')} ${usedRecently === 1 ? 'was' : 'were'} used in the last ${days} days`,
    ...(learnedRecently > 0
      ? [
          `${learnedRecently} ${learnedRecently === 1 ? 'was' : 'were'} learned in that time and ${learnedRecently === 1 ? 'has' : 'have'} not been used yet`,
        ]
      : []),
    ...(model.unused.length > 0
      ? [`${model.unused.length} ${model.unused.length === 1 ? 'was' : 'were'} neither (listed here)`]
      : []),
  ];
  return `${parts.join('; ')}.`;
}

function healthFigure(model: ReportModel): string {
  const figure = model.health;
  const rows = periodRows(figure);
  const last = figure.series.map((s) => `${s.values.at(-1) ?? 0} ${s.name}`).join(', ');
  return barChart(
    {
      id: 'health',
      title: 'Pool health: insights by status at the end of each week',
      summary: `Week by week, how many insights were active, proposed (waiting for review), rejected or archived; this week: ${last}.`,
    },
    figure.periods,
    figure.series.map((s) => ({ name: s.name, values: s.values, color: STATUS_COLORS[s.name] ?? '#000' })),
    {
      stacked: true,
      emptyMessage: 'No insight yet.',
      data: {
        caption: 'Insights by status per week (week starting)',
        head: ['week', ...figure.series.map((s) => s.name)],
        rows,
      },
    },
  );
}

function activityFigure(model: ReportModel): string {
  const figure = model.activity;
  const rows = periodRows(figure);
  const colors = [PALETTE[0], PALETTE[2], PALETTE[3]] as string[];
  return barChart(
    {
      id: 'activity',
      title: 'Uses and votes per week',
      summary: `${model.totals.uses} uses, ${model.totals.up} up-votes and ${model.totals.down} down-votes over ${figure.periods.length} weeks.`,
    },
    figure.periods,
    figure.series.map((s, i) => ({ name: s.name, values: s.values, color: colors[i] as string })),
    {
      stacked: false,
      emptyMessage: 'No use and no vote in this period.',
      data: {
        caption: 'Uses and votes per week (week starting)',
        head: ['week', ...figure.series.map((s) => s.name)],
        rows,
      },
    },
  );
}

function sourcesText(insight: InsightView): string {
  const named = [...new Set(insight.sources.filter((s) => !s.hidden).map((s) => s.repo))];
  const hidden = insight.sources.filter((s) => s.hidden).length;
  return [...named, ...(hidden > 0 ? [`${hidden} in private repositories`] : [])].join(', ');
}

function insightsTable(model: ReportModel): string {
  const columns: [string, 'text' | 'number'][] = [
    ['Title', 'text'],
    ['Routine', 'text'],
    ['Support', 'number'],
    ['Uses', 'number'],
    ['Up-votes', 'number'],
    ['Down-votes', 'number'],
    ['Outcomes', 'number'],
    ['Sources', 'text'],
    ['Status', 'text'],
  ];
  const head = columns
    .map(
      ([name, type]) => `<th scope="col"><button type="button" data-type="${type}">${escapeHtml(name)}</button></th>`,
    )
    .join('');
  const rows = model.insights.map((i) => {
    const text = [i.title, i.description, i.routine, sourcesText(i), i.status].join(' ').toLowerCase();
    const cells: [string, string | number][] = [
      [`<a href="#insight-${escapeHtml(i.id)}">${escapeHtml(i.title)}</a>`, i.title.toLowerCase()],
      [escapeHtml(i.routine), i.routine],
      [String(i.support), i.support],
      [String(i.uses), i.uses],
      [String(i.up), i.up],
      [String(i.down), i.down],
      [`${i.success} passed, ${i.failure} failed`, i.success - i.failure],
      [escapeHtml(sourcesText(i)), sourcesText(i).toLowerCase()],
      [`<span class="status status-${escapeHtml(i.status)}">${escapeHtml(i.status)}</span>`, i.status],
    ];
    return (
      `<tr data-id="${escapeHtml(i.id)}" data-status="${escapeHtml(i.status)}" data-text="${escapeHtml(text)}">` +
      cells
        .map(
          ([html, value], n) =>
            `<td${n >= 2 && n <= 6 ? ' class="num"' : ''} data-value="${escapeHtml(String(value))}">${html}</td>`,
        )
        .join('') +
      '</tr>'
    );
  });
  const statuses = ['active', 'proposed', 'rejected', 'archived']
    .map(
      (s) => `<option value="${s}">${s} (${model.totals.byStatus[s as keyof typeof model.totals.byStatus]})</option>`,
    )
    .join('');
  return [
    '<div class="controls" id="insight-controls" hidden>',
    '<div><label for="insight-search">Search the insights</label><input type="search" id="insight-search" placeholder="title, routine, source…"></div>',
    `<div><label for="insight-status">Filter by status</label><select id="insight-status"><option value="">every status</option>${statuses}</select></div>`,
    `<p id="insight-count" role="status" aria-live="polite">${model.insights.length} of ${model.insights.length} insights shown</p>`,
    '</div>',
    '<table id="insights-table"><caption>Insights (choose a title for its evidence, sources and audit trail; column headers sort)</caption>',
    `<thead><tr>${head}</tr></thead>`,
    `<tbody>${rows.join('\n')}</tbody></table>`,
  ].join('\n');
}

export interface ActionForms {
  /** e.g. "/dashboard/acme": forms post to `${basePath}/insights/<id>/<action>` */
  basePath: string;
  csrfToken: string;
}

function actionForms(insight: InsightView, forms: ActionForms): string {
  const action = (name: string) => `${escapeHtml(forms.basePath)}/insights/${escapeHtml(insight.id)}/${name}`;
  const csrf = `<input type="hidden" name="csrf" value="${escapeHtml(forms.csrfToken)}">`;
  const id = escapeHtml(insight.id);
  const parts: string[] = [];
  if (insight.status !== 'active') {
    parts.push(
      `<form method="post" action="${action('approve')}">${csrf}<button type="submit">Approve</button></form>`,
    );
  }
  if (insight.status !== 'rejected') {
    parts.push(`<form method="post" action="${action('reject')}">${csrf}<button type="submit">Reject</button></form>`);
  }
  parts.push(
    `<form method="post" action="${action('edit')}">${csrf}` +
      `<p><label for="edit-title-${id}">Title</label><br><input type="text" id="edit-title-${id}" name="title" size="60" value="${escapeHtml(insight.title)}"></p>` +
      `<p><label for="edit-description-${id}">Description</label><br><textarea id="edit-description-${id}" name="description">${escapeHtml(insight.description)}</textarea></p>` +
      `<p><label for="edit-content-${id}">Content</label><br><textarea id="edit-content-${id}" name="content">${escapeHtml(insight.content)}</textarea></p>` +
      '<button type="submit">Save the edit</button></form>',
    `<form class="danger" method="post" action="${action('forget')}">${csrf}` +
      `<p><input type="checkbox" id="forget-confirm-${id}" name="confirm" value="yes" required> <label for="forget-confirm-${id}">Delete this insight for good</label></p>` +
      '<button type="submit">Forget</button></form>',
  );
  return `<h4>Change it</h4><div class="actions">${parts.join('')}</div>`;
}

function detail(insight: InsightView, forms?: ActionForms): string {
  const id = escapeHtml(insight.id);
  const sources = insight.sources
    .map((s) => {
      const name = s.hidden
        ? escapeHtml(s.repo)
        : escapeHtml(`${s.repo}${s.ref ? ` ${s.ref.length > 12 ? s.ref.slice(0, 12) : `#${s.ref}`}` : ''}`);
      const linked =
        s.url && /^https:\/\//.test(s.url) && !s.hidden ? `<a href="${escapeHtml(s.url)}">${name}</a>` : name;
      return `<li>${linked} <span class="muted">(${escapeHtml(s.date.slice(0, 10))})</span></li>`;
    })
    .join('');
  const evidence =
    insight.evidence.map((e) => `<li>${escapeHtml(e)}</li>`).join('') || '<li class="muted">none recorded</li>';
  const audit = insight.audit.length
    ? `<table><caption>Audit trail, newest first</caption><thead><tr><th scope="col">when</th><th scope="col">who</th><th scope="col">what</th><th scope="col">detail</th></tr></thead><tbody>${insight.audit
        .map(
          (a) =>
            `<tr><td>${escapeHtml(a.at.slice(0, 16).replace('T', ' '))}</td><td>${escapeHtml(a.actor)}</td><td>${escapeHtml(a.action)}</td><td>${escapeHtml(a.detail ?? '')}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">No change recorded since it was learned.</p>';
  return [
    `<section class="insight-detail" id="insight-${id}" aria-labelledby="insight-${id}-title" tabindex="-1">`,
    `<h3 id="insight-${id}-title">${escapeHtml(insight.title)} <span class="status status-${escapeHtml(insight.status)}">${escapeHtml(insight.status)}</span></h3>`,
    `<p>${escapeHtml(insight.description)}</p>`,
    `<p>${escapeHtml(insight.content)}</p>`,
    `<p class="muted">id ${id} · routine ${escapeHtml(insight.routine)} · support ${insight.support} · ${insight.uses} uses · ${insight.up} up, ${insight.down} down · ` +
      `${insight.success} runs passed, ${insight.failure} failed · ${escapeHtml(insight.visibility)} · learned ${escapeHtml(insight.createdAt.slice(0, 10))}</p>`,
    `<h4>Evidence</h4><ul>${evidence}</ul>`,
    `<h4>Sources</h4><ul>${sources}</ul>`,
    `<h4>Audit trail</h4>${audit}`,
    forms && insight.canChange ? actionForms(insight, forms) : '',
    '<p><a href="#insights">Back to the table</a></p>',
    '</section>',
  ].join('\n');
}

export interface ReportPageOptions extends PageChrome {
  /** the dashboard's write actions (shown on the insights the viewer may change) */
  forms?: ActionForms;
}

/** The whole report page. */
export function renderReportPage(model: ReportModel, options: ReportPageOptions = {}): string {
  const t = model.totals;
  const unused = [
    `<p id="active-use">${escapeHtml(activeUseText(model))}</p>`,
    model.unused.length
      ? `<ul>${model.unused.map((u) => `<li><a href="#insight-${escapeHtml(u.id)}">${escapeHtml(u.title)}</a> <span class="muted">(last used ${escapeHtml(u.lastUsedAt?.slice(0, 10) ?? 'never')})</span></li>`).join('')}</ul>`
      : '',
  ].join('');
  const main = [
    '<section class="part" aria-labelledby="summary-h"><h2 id="summary-h">In short</h2><ul class="cards">',
    `<li><strong>${t.insights}</strong>insights</li>`,
    ...(model.fixesLearned !== undefined
      ? [`<li id="card-fixes-learned"><strong>${model.fixesLearned}</strong>fixes learned</li>`]
      : []),
    `<li id="card-fixes"><strong>${model.fixes}</strong>fixes behind an insight</li>`,
    `<li><strong>${t.byStatus.active}</strong>active</li>`,
    `<li><strong>${t.byStatus.proposed}</strong>waiting for review</li>`,
    `<li><strong>${t.uses}</strong>uses</li>`,
    `<li><strong>${t.up} / ${t.down}</strong>up- / down-votes</li>`,
    '</ul></section>',
    '<section class="part" id="transfer" aria-labelledby="transfer-h"><h2 id="transfer-h">Which repositories teach and which learn</h2>',
    transferFigure(model),
    '</section>',
    '<section class="part" id="routines" aria-labelledby="routines-h"><h2 id="routines-h">Routines the org relearns</h2>',
    routinesFigure(model),
    routineTimelineFigure(model),
    '</section>',
    '<section class="part" id="health" aria-labelledby="health-h"><h2 id="health-h">Pool health</h2>',
    healthFigure(model),
    activityFigure(model),
    `<h3>Active insights nobody used in ${model.unusedDays} days</h3>`,
    unused,
    '</section>',
    '<section class="part" id="insights" aria-labelledby="insights-h"><h2 id="insights-h">The insights</h2>',
    insightsTable(model),
    model.insights.map((i) => detail(i, options.forms)).join('\n'),
    '</section>',
  ].join('\n');
  const footer = `<footer class="muted"><p>Generated ${escapeHtml(model.generatedAt.slice(0, 16).replace('T', ' '))} UTC for ${escapeHtml(model.viewer)}${model.since ? ` · since ${escapeHtml(model.since.slice(0, 10))}` : ''} · Memory Transfer</p></footer>`;
  return renderShell(
    {
      title: `Memory Transfer — ${model.tenant}`,
      heading: `Memory Transfer — the pool of ${model.tenant}`,
      subtitle: `${t.insights} insights seen by ${model.viewer}`,
      nav: '<nav class="sections" aria-label="Sections"><a href="#transfer">Transfer</a><a href="#routines">Routines</a><a href="#health">Pool health</a><a href="#insights">Insights</a></nav>',
      main,
      footer,
      script: REPORT_SCRIPT,
    },
    options,
  );
}
