/**
 * The report page tells one story: every figure that counts fixes counts the same ones (and
 * `stats` agrees), no month is drawn where the pool has no fix, the sentence on unused insights is
 * true, and no label or legend of a chart is cut off by the chart's edge. Opened in headless Chromium.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReportPage } from '../../src/core/rendering/report-html.js';
import { buildReportModel } from '../../src/core/rendering/report-model.js';
import type { Memory, Provenance } from '../../src/core/types.js';
import { silentLogger } from '../../src/ports/index.js';
import { openStore } from '../../src/store/open-store.js';
import { mondayOf, seedReportPool, seedWeekPool } from '../fixtures/report-pool.js';
import { clippedChartTexts, launchBrowser, markTotal, overlappingLegendEntries } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mt-report-figures-'));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(file: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(pathToFileURL(file).href);
  return page;
}

/** `memory-transfer report` of the pool at `db`, opened. */
async function report(db: string, ...flags: string[]): Promise<Page> {
  const out = `${db}.html`;
  const run = await runCli(['--db', db, 'report', '--out', out, ...flags], dir);
  expect(run.code, run.stderr).toBe(0);
  return open(out);
}

const card = async (page: Page, id: string) => Number(await page.locator(`#${id} strong`).textContent());

/** The values drawn by one series of a chart. */
async function seriesTotal(page: Page, chart: string, series: string): Promise<number> {
  const values = await page
    .locator(`#fig-${chart} svg .mark[data-series="${series}"]`)
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
  return values.reduce((a, b) => a + b, 0);
}

/** The periods of a chart over time (its table's rows) that draw no mark. */
async function emptyPeriods(page: Page, chart: string): Promise<string[]> {
  const periods = await page.locator(`#fig-${chart} table.numbers tbody th`).allTextContents();
  const drawn = await page
    .locator(`#fig-${chart} svg .mark`)
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-category')));
  return periods.filter((p) => !drawn.includes(p));
}

describe('a newcomer’s pool: learned this week from fixes of one week, never used', () => {
  let db: string;
  let page: Page;

  beforeAll(async () => {
    db = join(dir, 'week.db');
    const store = await openStore(db, silentLogger);
    await seedWeekPool(store);
    await store.close();
    page = await report(db);
  });

  it('counts the same fixes in every figure, and `stats` agrees', async () => {
    // 4 distinct fixes behind the 3 insights (one is behind two of them); 6 learned in all
    expect(await card(page, 'card-fixes')).toBe(4);
    expect(await seriesTotal(page, 'routines', 'supporting fixes')).toBe(4);
    expect(await markTotal(page, 'routine-timeline')).toBe(4);
    await expect(page.locator('#fig-routine-timeline figcaption').textContent()).resolves.toContain(
      'All 4 fixes behind an insight',
    );
    expect(await card(page, 'card-fixes-learned')).toBe(6);
    const stats = await runCli(['--db', db, 'stats', '--json'], dir);
    expect(JSON.parse(stats.stdout)).toMatchObject({ fixes: 6, fixesBehindInsights: 4 });
    expect((await runCli(['--db', db, 'stats'], dir)).stdout).toMatch(/^fixes {5}6 learned, 4 behind an insight$/m);
  });

  it('draws no month without a fix and no week before the pool existed', async () => {
    const months = await page.locator('#fig-routine-timeline table.numbers tbody tr').count();
    expect(months).toBeGreaterThanOrEqual(1);
    expect(months).toBeLessThanOrEqual(2); // the fixes' week may straddle two months
    expect(await emptyPeriods(page, 'routine-timeline')).toEqual([]);
    expect(await emptyPeriods(page, 'health')).toEqual([]);
  });

  it('says that nothing was used, not that everything was', async () => {
    const text = await page.locator('#health').textContent();
    expect(text).not.toContain('used recently');
    await expect(page.locator('#active-use').textContent()).resolves.toBe(
      '0 of the 3 active insights were used in the last 90 days; 3 were learned in that time and have not been used yet.',
    );
  });

  it('cuts off no label and no legend', async () => {
    expect(await clippedChartTexts(page)).toEqual([]);
    expect(await overlappingLegendEntries(page)).toEqual([]);
  });
});

describe('the seeded organization pool', () => {
  let db: string;
  let since: string;

  beforeAll(async () => {
    db = join(dir, 'org.db');
    const store = await openStore(db, silentLogger);
    since = (await seedReportPool(store)).since;
    await store.close();
  });

  it('with --since: the monthly chart says which fixes it leaves out, and the counts add up', async () => {
    const page = await report(db, '--since', since);
    // 8 distinct fixes behind the 7 insights; the one dated 200 days ago is before --since
    expect(await card(page, 'card-fixes')).toBe(8);
    expect(await seriesTotal(page, 'routines', 'supporting fixes')).toBe(8);
    expect(await markTotal(page, 'routine-timeline')).toBe(7);
    await expect(page.locator('#fig-routine-timeline figcaption').textContent()).resolves.toContain(
      `7 of the 8 fixes behind an insight`,
    );
    await expect(page.locator('#fig-routine-timeline figcaption').textContent()).resolves.toContain(
      `Not drawn: 1 dated before ${since.slice(0, 10)}.`,
    );
    // the "archived" legend of the health chart is the fourth entry: it used to be cut to "archivec"
    expect(await clippedChartTexts(page)).toEqual([]);
    expect(await overlappingLegendEntries(page)).toEqual([]);
  });

  it('over its whole life (26 weeks, labels written at an angle): nothing is cut off', async () => {
    const page = await report(db);
    expect(await page.locator('#fig-health svg text.axis-label[transform]').count()).toBeGreaterThan(20);
    expect(await clippedChartTexts(page)).toEqual([]);
    expect(await overlappingLegendEntries(page)).toEqual([]);
    await expect(page.locator('#active-use').textContent()).resolves.toBe(
      '3 of the 4 active insights were used in the last 90 days; 1 was neither (listed here).',
    );
  });
});

it('long repository names and every routine kind: no label or legend is cut off', async () => {
  const now = new Date();
  const monday = mondayOf(now);
  const weeksAgo = (n: number) => new Date(monday - n * 7 * 86_400_000 + 3_600_000).toISOString();
  const repos = ['acme/payments-gateway-service', 'acme/frontend-monorepo-web', 'acme/infrastructure-terraform'];
  const kinds = [
    'performance-resource',
    'security-validation',
    'dependency-compat',
    'concurrency-async',
    'build-packaging',
    'encoding-locale',
    'platform-compat',
    'regression-test',
    'data-migration',
  ];
  const memories: Memory[] = kinds.map((kind, i) => {
    const source: Provenance = {
      tenant: 'acme',
      repo: repos[i % repos.length] as string,
      visibility: 'public',
      sourceKind: 'pull_request',
      ref: String(100 + i),
      authors: ['ada'],
      date: weeksAgo(40 - i * 4),
    };
    return {
      id: `ml00000000${i}`,
      tenant: 'acme',
      level: 'insight',
      title: `A ${kind} lesson`,
      description: 'd',
      content: 'c',
      body: { level: 'insight', insight: { title: `A ${kind} lesson`, description: 'd', content: 'c' } },
      tags: [`routine:${kind}`],
      lesson: null,
      routines: [kind],
      facet: null,
      examples: [],
      writer: 'rules',
      evidence: [],
      provenance: [source],
      visibility: 'public',
      status: (['active', 'proposed', 'rejected', 'archived'] as const)[i % 4] ?? 'active',
      votes: { up: 0, down: 0 },
      support: 1,
      uses: 0,
      outcomes: { success: 0, failure: 0 },
      model: 'rules@1',
      createdAt: weeksAgo(30 - i),
      updatedAt: weeksAgo(30 - i),
    };
  });
  const uses = repos.flatMap((receiver, i) =>
    memories.slice(0, 3).map((m, j) => ({ memoryId: m.id, repo: receiver, at: weeksAgo(1 + i + j) })),
  );
  const model = buildReportModel('acme', { memories, uses, votes: [], audit: [] }, { tenant: 'acme' }, { now });
  const file = join(dir, 'long-names.html');
  writeFileSync(file, renderReportPage(model));
  const page = await open(file);
  expect(await page.locator('#fig-routine-timeline .legend-label').count()).toBe(kinds.length);
  expect(await clippedChartTexts(page)).toEqual([]);
  expect(await overlappingLegendEntries(page)).toEqual([]);
});
