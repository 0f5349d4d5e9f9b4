/**
 * `memory-transfer report` end to end: the seeded pool (fixtures/report-pool.ts) → the CLI → one
 * HTML file → opened from disk in headless Chromium with every request outside file:// refused.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { silentLogger } from '../../src/ports/index.js';
import { seedReportPool, type SeededPool } from '../fixtures/report-pool.js';
import { launchBrowser, markTotal, marks, seriousViolations } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let browser: Browser;
let seeded: SeededPool;
let reportFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mt-report-'));
  const store = await openStore(join(dir, 'pool.db'), silentLogger);
  seeded = await seedReportPool(store);
  await store.close();
  const run = await runCli(
    ['--db', join(dir, 'pool.db'), 'report', '--out', 'report.html', '--since', seeded.since],
    dir,
  );
  expect(run.stderr).toContain('wrote the report of acme (7 insights) to report.html');
  expect(run.code).toBe(0);
  reportFile = join(dir, 'report.html');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens the report from disk; any request that is not for a file fails the test, and so does any console error (a CSP violation). */
async function openReport(): Promise<{ page: Page; foreign: string[]; errors: string[] }> {
  const context = await browser.newContext();
  const foreign: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(pathToFileURL(reportFile).href);
  return { page, foreign, errors };
}

async function visibleIds(page: Page): Promise<string[]> {
  return page
    .locator('#insights-table tbody tr:not([hidden])')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));
}

describe('memory-transfer report', () => {
  it('is one file that opens from disk with no request to any other host and no policy violation', async () => {
    const html = readFileSync(reportFile, 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|@import|url\(http/i);
    expect(html).toContain('Content-Security-Policy');
    const { page, foreign, errors } = await openReport();
    await expect(page.title()).resolves.toBe('Memory Transfer — acme');
    // the script ran (it reveals the table controls and counts the rows)
    await expect(page.locator('#insight-count').textContent()).resolves.toBe('7 of 7 insights shown');
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('draws each chart with one mark per value of the seeded pool', async () => {
    const { page } = await openReport();
    // 6 source → receiver pairs with uses: api→web, web→web, api→docs, web→docs, web→api, secret→api
    expect(await marks(page, 'transfer')).toBe(6);
    await expect(
      page.locator('#fig-transfer .mark[data-row="acme/web"][data-column="acme/api"]').getAttribute('data-value'),
    ).resolves.toBe('2');
    await expect(
      page.locator('#fig-transfer .mark[data-row="acme/api"][data-column="acme/web"] title').textContent(),
    ).resolves.toBe('acme/api → acme/web: 1 uses, 1 up-votes, 0 down-votes');
    // 6 routine kinds × (insights, supporting fixes)
    expect(await marks(page, 'routines')).toBe(12);
    // the 7 fixes dated in the period (the one learned 200 days ago is before --since)
    expect(await markTotal(page, 'routine-timeline')).toBe(7);
    // 9 weeks × the statuses present that week, replayed from the audit log
    expect(await marks(page, 'health')).toBe(24);
    // uses in 3 weeks, one 👍 and one 👎 this week
    expect(await marks(page, 'activity')).toBe(5);
    // each chart's numbers are also in a table, and it has a text alternative
    for (const chart of ['transfer', 'routines', 'routine-timeline', 'health', 'activity']) {
      await expect(page.locator(`#fig-${chart} table.numbers`).count()).resolves.toBe(1);
      await expect(page.locator(`#fig-${chart} svg desc`).textContent()).resolves.not.toBe('');
    }
    await expect(page.locator('#fig-routines table.numbers tbody tr').first().textContent()).resolves.toBe(
      'edge-input23',
    );
    await page.context().close();
  });

  it('lists the active insights nobody used in 90 days', async () => {
    const { page } = await openReport();
    const unused = await page.locator('#health ul li a').allTextContents();
    expect(unused).toEqual(['Surface the original error when retrying']);
    await page.context().close();
  });

  it('sorts and filters the insights table, and opens an insight with its sources and audit trail', async () => {
    const { page } = await openReport();
    await page.getByRole('button', { name: 'Support' }).click();
    await page.getByRole('button', { name: 'Support' }).click();
    await expect(page.locator('th:has(button:text-is("Support"))').getAttribute('aria-sort')).resolves.toBe(
      'descending',
    );
    expect((await visibleIds(page))[0]).toBe(seeded.ids.a);
    await page.getByRole('button', { name: 'Title' }).click();
    // "Await every write…" comes first in alphabetical order
    expect((await visibleIds(page))[0]).toBe(seeded.ids.c);
    await page.getByLabel('Search the insights').fill('edge-input');
    expect((await visibleIds(page)).sort()).toEqual([seeded.ids.a, seeded.ids.g]);
    await expect(page.locator('#insight-count').textContent()).resolves.toMatch(/^2 of 7 insights shown/);
    await page.getByLabel('Search the insights').fill('');
    await page.getByLabel('Filter by status').selectOption('proposed');
    expect(await visibleIds(page)).toEqual([seeded.ids.d]);
    await page.getByLabel('Filter by status').selectOption('');
    await page.getByRole('link', { name: 'Keep the formatter and the linter in one step' }).click();
    const detail = page.locator(`#insight-${seeded.ids.f}`);
    await expect(detail.isVisible()).resolves.toBe(true);
    await expect(detail.locator('table').textContent()).resolves.toContain('reject');
    await expect(detail.textContent()).resolves.toContain('acme/api #12');
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('passes the accessibility check', async () => {
    const { page } = await openReport();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('refuses a bad --since with one line naming the flag and an example', async () => {
    const run = await runCli(
      ['--db', join(dir, 'pool.db'), 'report', '--out', 'other.html', '--since', 'last week'],
      dir,
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('--since: must be a date like 2026-01-31');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
