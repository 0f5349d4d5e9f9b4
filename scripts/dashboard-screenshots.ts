/**
 * The screenshots of docs/dashboard.md: the seeded pool of the report and dashboard tests
 * (__tests__/fixtures/report-pool.ts) drawn by the same code the tests drive, photographed in
 * headless Chromium (as the page tests find it: CHROMIUM_PATH, else chromium on the PATH). Run: npm run screenshots
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSetupPage } from '../src/core/rendering/dashboard-pages.js';
import { renderReportPage } from '../src/core/rendering/report-html.js';
import { silentLogger, systemClock } from '../src/ports/index.js';
import { loadReport } from '../src/services/report.js';
import { openStore } from '../src/store/open-store.js';
import { seedReportPool } from '../__tests__/fixtures/report-pool.js';
import { launchBrowser } from '../__tests__/helpers/browser.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'docs', 'images');
mkdirSync(out, { recursive: true });

const dir = mkdtempSync(join(tmpdir(), 'mt-shots-'));
const store = await openStore(join(dir, 'pool.db'), silentLogger);
const browser = await launchBrowser();
try {
  const seeded = await seedReportPool(store);
  // the offline report, as `memory-transfer report --since <first week>` writes it
  const report = renderReportPage(
    await loadReport(store, systemClock, { viewer: { tenant: 'acme' }, since: seeded.since }),
  );
  // the dashboard as the member "mel" of the tests sees it (reads acme/api, writes to acme/web and acme/docs)
  const member = { login: 'mel', readable: ['acme/web', 'acme/docs', 'acme/api'], writable: ['acme/web', 'acme/docs'] };
  const dashboard = renderReportPage(await loadReport(store, systemClock, { viewer: { tenant: 'acme', member } }), {
    nonce: 'screenshot',
    account: { login: 'mel', signOutPath: '/dashboard/logout', csrfToken: 'screenshot' },
    forms: { basePath: '/dashboard/orgs/acme', csrfToken: 'screenshot' },
  });
  const setup = renderSetupPage('https://memory-transfer.example.com/dashboard/callback', { nonce: 'screenshot' });

  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const shot = async (name: string, selector?: string) => {
    const path = join(out, name);
    if (selector) await page.locator(selector).screenshot({ path });
    else await page.screenshot({ path });
    process.stdout.write(`wrote docs/images/${name}\n`);
  };
  await page.setContent(report);
  await shot('report-overview.png');
  await shot('report-routines.png', '#routines');
  await shot('report-health.png', '#health');
  await page.evaluate((id) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = `#insight-${id}`;
  }, seeded.ids.f);
  await shot('report-insights.png', '#insights');
  await page.setContent(dashboard);
  await page.evaluate((id) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = `#insight-${id}`;
  }, seeded.ids.d);
  await shot('dashboard-review.png', `#insight-${seeded.ids.d}`);
  await page.setContent(setup);
  await shot('dashboard-setup.png');
} finally {
  await browser.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
