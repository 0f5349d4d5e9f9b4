/**
 * The report model: every figure of the offline report and the dashboard, computed from what the
 * store holds (insights, uses, votes, audit log) for one viewer (./viewer.ts). Pure: the service
 * (services/report.ts) reads the store, ./report-html.ts draws the model.
 *
 * Time axes: weeks start on Monday (UTC), months are calendar months (UTC). The weekly figures run
 * from the first insight (or `since`, when later) to `now`, at most 26 weeks; the monthly one from
 * the first dated fix to the last (after `since`), at most 12 months. Every figure that counts
 * fixes counts the same ones (supportingFixes), and says how many it leaves out.
 */
import { mainRoutine } from '../knowledge/identity.js';
import type { AuditEntry, Memory, MemoryStatus, Visibility } from '../types.js';
import { MEMORY_STATUSES } from '../types.js';
import { HIDDEN_REPO, mayNameRepo, viewerMayChange, viewerMaySee, type Viewer } from './viewer.js';

/** A use of a memory (an injection or a comment) in a repository. */
export interface ReportUse {
  memoryId: string;
  repo: string;
  at: string;
}

/** A person's current 👍/👎 on a memory, with the threads ("owner/name#n") whose reactions back it. */
export interface ReportVote {
  memoryId: string;
  direction: 'up' | 'down';
  threads: string[];
  at: string;
}

export interface ReportInput {
  memories: Memory[];
  uses: ReportUse[];
  votes: ReportVote[];
  /** the tenant's audit log, any order */
  audit: AuditEntry[];
  /** the fixes the pool has learned (the fix ledger, as `stats` counts them): given for the local admin only */
  fixesLearned?: number;
}

export interface ReportOptions {
  now: Date;
  /** ISO date: figures over time start here; uses and votes before it are left out */
  since?: string;
  /** days without a use after which an active insight counts as unused (default 90) */
  unusedDays?: number;
}

export interface TransferCell {
  source: string;
  receiver: string;
  uses: number;
  up: number;
  down: number;
}

export interface RoutineRow {
  routine: string;
  insights: number;
  fixes: number;
}

/** The supporting fixes the monthly chart does not draw, by reason. */
export interface FixesNotDrawn {
  /** dated before `since` */
  beforeSince: number;
  since?: string;
  /** dated before the first month drawn (the chart shows MAX_MONTHS at most) */
  beforeFirstMonth: number;
  /** with no valid date */
  undated: number;
}

export interface ActiveUse {
  active: number;
  /** active insights used in the last `unusedDays` days */
  usedRecently: number;
  /** active insights not used in that time, learned within it */
  learnedRecently: number;
  /** active insights neither used nor learned in that time */
  unused: { id: string; title: string; lastUsedAt?: string }[];
}

export interface Series {
  name: string;
  values: number[];
}

export interface TimeFigure {
  /** labels of the periods: "2026-W05"-like week starts (YYYY-MM-DD) or months (YYYY-MM) */
  periods: string[];
  series: Series[];
}

export interface SourceView {
  /** owner/name, or HIDDEN_REPO */
  repo: string;
  ref?: string;
  url?: string;
  date: string;
  hidden: boolean;
}

export interface InsightView {
  id: string;
  title: string;
  description: string;
  content: string;
  routine: string;
  support: number;
  uses: number;
  up: number;
  down: number;
  success: number;
  failure: number;
  status: MemoryStatus;
  visibility: Visibility;
  sources: SourceView[];
  evidence: string[];
  audit: AuditEntry[];
  createdAt: string;
  lastUsedAt?: string;
  /** the viewer may approve, reject, edit and forget it from the dashboard */
  canChange: boolean;
}

export interface ReportModel {
  tenant: string;
  generatedAt: string;
  since?: string;
  /** "local admin" or the member's login */
  viewer: string;
  totals: { insights: number; byStatus: Record<MemoryStatus, number>; uses: number; up: number; down: number };
  transfer: { sources: string[]; receivers: string[]; cells: TransferCell[] };
  /** the distinct fixes behind the insights (SupportingFix): what every fix figure counts */
  fixes: number;
  /** the local admin's report: every fix learned, as `stats` counts them (some gave no insight) */
  fixesLearned?: number;
  /** routine rows: their `fixes` add up to `fixes` */
  routines: RoutineRow[];
  routineTimeline: TimeFigure;
  /** fixes drawn in routineTimeline + these = `fixes` */
  fixesNotDrawn: FixesNotDrawn;
  health: TimeFigure;
  activity: TimeFigure;
  /** active insights neither used nor learned in the last `unusedDays` days */
  unused: ActiveUse['unused'];
  activeUse: Omit<ActiveUse, 'unused'>;
  unusedDays: number;
  insights: InsightView[];
}

const DAY = 86_400_000;
const MAX_WEEKS = 26;
const MAX_MONTHS = 12;

function weekStart(time: number): number {
  const d = new Date(time);
  const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const weekday = (d.getUTCDay() + 6) % 7; // Monday = 0
  return midnight - weekday * DAY;
}

function day(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** Week starts from the first to the last time given (at most MAX_WEEKS, the latest ones). */
export function weeksBetween(from: number, to: number): number[] {
  const weeks: number[] = [];
  for (let w = weekStart(Math.min(from, to)); w <= to; w += 7 * DAY) weeks.push(w);
  return weeks.slice(-MAX_WEEKS);
}

/** "YYYY-MM" of a time, in UTC (as monthsBetween labels them). */
function monthOfTime(time: number): string {
  return new Date(time).toISOString().slice(0, 7);
}

function monthsBetween(from: number, to: number): string[] {
  const months: string[] = [];
  const start = new Date(Math.min(from, to));
  let y = start.getUTCFullYear();
  let m = start.getUTCMonth();
  for (;;) {
    const label = `${y}-${String(m + 1).padStart(2, '0')}`;
    if (Date.UTC(y, m, 1) > to) break;
    months.push(label);
    m += 1;
    if (m === 12) {
      m = 0;
      y += 1;
    }
  }
  return months.slice(-MAX_MONTHS);
}

/** The earliest finite time, or `fallback` (a loop: a pool's worth of dates is too many arguments for Math.min). */
function earliest(fallback: number, times: number[]): number {
  let min = fallback;
  for (const t of times) if (Number.isFinite(t) && t < min) min = t;
  return min;
}

/** The latest of the times. */
function latest(times: number[]): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const t of times) if (t > max) max = t;
  return max;
}

function indexOfWeek(weeks: number[], time: number): number {
  const w = weekStart(time);
  return weeks.indexOf(w);
}

/** The main routine of an insight ("other" when it has none this version knows). */
export function routineOf(memory: Pick<Memory, 'routines'>): string {
  return mainRoutine(memory) ?? 'other';
}

const STATUS_EVENT: Partial<Record<AuditEntry['action'], { to: MemoryStatus; from: MemoryStatus }>> = {
  approve: { to: 'active', from: 'proposed' },
  reject: { to: 'rejected', from: 'proposed' },
  archive: { to: 'archived', from: 'active' },
  restore: { to: 'active', from: 'archived' },
};

/**
 * The memory's status at `time`, replayed from the audit log: before its first status change it
 * had the status that change starts from (approve and reject start from proposed, archive from
 * active, restore from archived); undefined before it was created.
 */
export function statusAt(memory: Memory, events: AuditEntry[], time: number): MemoryStatus | undefined {
  if (Date.parse(memory.createdAt) > time) return undefined;
  const changes = events.filter((e) => STATUS_EVENT[e.action] !== undefined);
  const first = changes[0];
  let status: MemoryStatus = first ? (STATUS_EVENT[first.action] as { from: MemoryStatus }).from : memory.status;
  for (const event of changes) {
    if (Date.parse(event.at) > time) break;
    status = (STATUS_EVENT[event.action] as { to: MemoryStatus }).to;
  }
  return status;
}

function sourceRepos(memory: Memory, viewer: Viewer): string[] {
  const names = memory.provenance.map((p) => (mayNameRepo(viewer, p.repo, p.visibility) ? p.repo : HIDDEN_REPO));
  return [...new Set(names)];
}

function withoutDetail(entry: AuditEntry): AuditEntry {
  const { detail: _detail, ...rest } = entry;
  return rest;
}

function sortedKeys(map: Map<string, number>): string[] {
  return [...map.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k);
}

/**
 * A fix behind the viewer's insights, counted once however many insights it supports: under the
 * routine of the first insight learned from it. Every figure that counts fixes counts these.
 */
export interface SupportingFix {
  /** lower-cased repository and ref */
  key: string;
  routine: string;
  date: string;
}

/** The distinct fixes (repository and ref) behind the insights, in the order the insights were learned. */
export function supportingFixes(insights: Memory[]): SupportingFix[] {
  const fixes = new Map<string, SupportingFix>();
  const learned = [...insights].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  for (const m of learned) {
    for (const p of m.provenance) {
      const key = `${p.repo.toLowerCase()}#${p.ref}`;
      if (!fixes.has(key)) fixes.set(key, { key, routine: routineOf(m), date: p.date });
    }
  }
  return [...fixes.values()];
}

/** Insights per main routine, and the fixes counted under it (their sum is the number of fixes). */
function routineRows(insights: Memory[], fixes: SupportingFix[]): RoutineRow[] {
  const rows = new Map<string, RoutineRow>();
  const row = (routine: string) => {
    let found = rows.get(routine);
    if (!found) {
      found = { routine, insights: 0, fixes: 0 };
      rows.set(routine, found);
    }
    return found;
  };
  for (const m of insights) row(routineOf(m)).insights += 1;
  for (const fix of fixes) row(fix.routine).fixes += 1;
  return [...rows.values()].sort(
    (a, b) => b.fixes - a.fixes || b.insights - a.insights || a.routine.localeCompare(b.routine),
  );
}

/**
 * Fixes per month and routine, from the month of the first dated fix to the month of the last (at
 * most MAX_MONTHS, the latest): no month before the first fix or after the last is drawn. The fixes
 * it leaves out are counted, so that drawn + left out = every supporting fix.
 */
function fixTimeline(
  routines: RoutineRow[],
  fixes: SupportingFix[],
  sinceTime: number | undefined,
  since: string | undefined,
): { figure: TimeFigure; notDrawn: FixesNotDrawn } {
  const dated = fixes
    .map((f) => ({ routine: f.routine, time: Date.parse(f.date) }))
    .filter((f) => Number.isFinite(f.time));
  const inPeriod = dated.filter((f) => sinceTime === undefined || f.time >= sinceTime);
  const times = inPeriod.map((f) => f.time);
  const months = times.length === 0 ? [] : monthsBetween(earliest(Infinity, times), latest(times));
  const drawn = inPeriod.filter((f) => months.includes(monthOfTime(f.time)));
  const series = routines.map((r) => ({
    name: r.routine,
    values: months.map((month) => drawn.filter((f) => f.routine === r.routine && monthOfTime(f.time) === month).length),
  }));
  return {
    figure: { periods: months, series: series.filter((s) => s.values.some((v) => v > 0)) },
    notDrawn: {
      beforeSince: dated.length - inPeriod.length,
      ...(since ? { since } : {}),
      beforeFirstMonth: inPeriod.length - drawn.length,
      undated: fixes.length - dated.length,
    },
  };
}

/** How the active insights were used in the last `unusedDays` days (a use: a usage record or `lastUsedAt`). */
function activeUse(insights: Memory[], uses: ReportUse[], now: number, unusedDays: number): ActiveUse {
  const cutoff = now - unusedDays * DAY;
  const lastUse = new Map<string, number>();
  for (const m of insights) if (m.lastUsedAt) lastUse.set(m.id, Date.parse(m.lastUsedAt));
  for (const u of uses) lastUse.set(u.memoryId, Math.max(lastUse.get(u.memoryId) ?? 0, Date.parse(u.at)));
  const active = insights.filter((m) => m.status === 'active');
  const notUsed = active.filter((m) => !((lastUse.get(m.id) ?? 0) > cutoff));
  const unused = notUsed
    .filter((m) => Date.parse(m.createdAt) <= cutoff)
    .map((m) => {
      const last = lastUse.get(m.id);
      return { id: m.id, title: m.title, ...(last ? { lastUsedAt: new Date(last).toISOString() } : {}) };
    });
  return {
    active: active.length,
    usedRecently: active.length - notUsed.length,
    learnedRecently: notUsed.length - unused.length,
    unused,
  };
}

/** Builds every figure for the viewer. Memories the viewer may not see leave no trace in any figure. */
export function buildReportModel(
  tenant: string,
  input: ReportInput,
  viewer: Viewer,
  options: ReportOptions,
): ReportModel {
  const now = options.now.getTime();
  const sinceTime = options.since ? Date.parse(options.since) : undefined;
  const unusedDays = options.unusedDays ?? 90;
  const insights = input.memories
    .filter((m) => m.level === 'insight' && viewerMaySee(m, viewer))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const byId = new Map(insights.map((m) => [m.id, m]));
  const inPeriod = (at: string) => sinceTime === undefined || Date.parse(at) >= sinceTime;
  const uses = input.uses.filter((u) => byId.has(u.memoryId) && inPeriod(u.at));
  const votes = input.votes.filter((v) => byId.has(v.memoryId) && inPeriod(v.at));

  // repositories named by any source: what the pool knows of their visibility
  const known = new Map<string, Visibility>();
  for (const m of input.memories) for (const p of m.provenance) known.set(p.repo.toLowerCase(), p.visibility);
  const receiverName = (repo: string) =>
    mayNameRepo(viewer, repo, known.get(repo.toLowerCase())) ? repo : HIDDEN_REPO;

  // transfer matrix: each source repository of the insight × the repository that used it
  const cells = new Map<string, TransferCell>();
  const sourceTotals = new Map<string, number>();
  const receiverTotals = new Map<string, number>();
  const cell = (source: string, receiver: string): TransferCell => {
    const key = `${source}\n${receiver}`;
    let found = cells.get(key);
    if (!found) {
      found = { source, receiver, uses: 0, up: 0, down: 0 };
      cells.set(key, found);
    }
    sourceTotals.set(source, (sourceTotals.get(source) ?? 0) + 1);
    receiverTotals.set(receiver, (receiverTotals.get(receiver) ?? 0) + 1);
    return found;
  };
  for (const use of uses) {
    const memory = byId.get(use.memoryId) as Memory;
    for (const source of sourceRepos(memory, viewer)) cell(source, receiverName(use.repo)).uses += 1;
  }
  for (const vote of votes) {
    const memory = byId.get(vote.memoryId) as Memory;
    const receivers = [...new Set(vote.threads.map((t) => receiverName(t.split('#')[0] ?? t)))];
    for (const receiver of receivers) {
      for (const source of sourceRepos(memory, viewer)) cell(source, receiver)[vote.direction] += 1;
    }
  }

  const fixes = supportingFixes(insights);
  const routines = routineRows(insights, fixes);
  const { figure: routineTimeline, notDrawn } = fixTimeline(routines, fixes, sinceTime, options.since);

  // pool health: status at the end of each week, replayed from the audit log
  const firstCreated = earliest(
    now,
    insights.map((m) => Date.parse(m.createdAt)),
  );
  // from the first insight, or `since` when that is later: no week is drawn before the pool existed
  const weeks = weeksBetween(Math.max(sinceTime ?? firstCreated, firstCreated), now);
  const eventsOf = new Map<string, AuditEntry[]>();
  for (const entry of [...input.audit].sort((a, b) => a.at.localeCompare(b.at))) {
    if (!entry.memoryId || !byId.has(entry.memoryId)) continue;
    const list = eventsOf.get(entry.memoryId) ?? [];
    list.push(entry);
    eventsOf.set(entry.memoryId, list);
  }
  const tallies = weeks.map(
    () => Object.fromEntries(MEMORY_STATUSES.map((s) => [s, 0])) as Record<MemoryStatus, number>,
  );
  const weekEnds = weeks.map((w) => Math.min(now, w + 7 * DAY - 1));
  for (const m of insights) {
    const events = eventsOf.get(m.id) ?? [];
    weekEnds.forEach((end, i) => {
      const status = statusAt(m, events, end);
      if (status) (tallies[i] as Record<MemoryStatus, number>)[status] += 1;
    });
  }
  const health: TimeFigure = {
    periods: weeks.map(day),
    series: (['active', 'proposed', 'rejected', 'archived'] as const).map((status) => ({
      name: status,
      values: tallies.map((t) => t[status]),
    })),
  };

  // uses and votes per week
  const perWeek = (times: string[]) => {
    const values = weeks.map(() => 0);
    for (const at of times) {
      const i = indexOfWeek(weeks, Date.parse(at));
      if (i >= 0) values[i] = (values[i] ?? 0) + 1;
    }
    return values;
  };
  const activity: TimeFigure = {
    periods: weeks.map(day),
    series: [
      { name: 'uses', values: perWeek(uses.map((u) => u.at)) },
      { name: 'up-votes', values: perWeek(votes.filter((v) => v.direction === 'up').map((v) => v.at)) },
      { name: 'down-votes', values: perWeek(votes.filter((v) => v.direction === 'down').map((v) => v.at)) },
    ],
  };

  const use = activeUse(insights, input.uses, now, unusedDays);

  const byStatus = Object.fromEntries(MEMORY_STATUSES.map((s) => [s, 0])) as Record<MemoryStatus, number>;
  for (const m of insights) byStatus[m.status] += 1;

  const views: InsightView[] = insights.map((m) => ({
    id: m.id,
    title: m.title,
    description: m.description,
    content: m.content,
    routine: routineOf(m),
    support: m.support,
    uses: m.uses,
    up: m.votes.up,
    down: m.votes.down,
    success: m.outcomes.success,
    failure: m.outcomes.failure,
    status: m.status,
    visibility: m.visibility,
    sources: m.provenance.map((p) => {
      const shown = mayNameRepo(viewer, p.repo, p.visibility);
      return shown
        ? { repo: p.repo, ref: p.ref, ...(p.url ? { url: p.url } : {}), date: p.date, hidden: false }
        : { repo: HIDDEN_REPO, date: p.date, hidden: true };
    }),
    evidence: m.evidence,
    // an audit detail may name a repository ("/memory in owner/name#3"): only the local admin reads them
    audit: [...(eventsOf.get(m.id) ?? [])].reverse().map((e) => (viewer.member ? withoutDetail(e) : e)),
    createdAt: m.createdAt,
    ...(m.lastUsedAt ? { lastUsedAt: m.lastUsedAt } : {}),
    canChange: viewerMayChange(m, viewer),
  }));

  return {
    tenant,
    generatedAt: options.now.toISOString(),
    ...(options.since ? { since: options.since } : {}),
    viewer: viewer.member ? viewer.member.login : 'local admin',
    totals: {
      insights: insights.length,
      byStatus,
      uses: uses.length,
      up: votes.filter((v) => v.direction === 'up').length,
      down: votes.filter((v) => v.direction === 'down').length,
    },
    transfer: { sources: sortedKeys(sourceTotals), receivers: sortedKeys(receiverTotals), cells: [...cells.values()] },
    fixes: fixes.length,
    ...(input.fixesLearned !== undefined ? { fixesLearned: input.fixesLearned } : {}),
    routines,
    routineTimeline,
    fixesNotDrawn: notDrawn,
    health,
    activity,
    unused: use.unused,
    activeUse: { active: use.active, usedRecently: use.usedRecently, learnedRecently: use.learnedRecently },
    unusedDays,
    insights: views,
  };
}
