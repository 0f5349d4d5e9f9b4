/**
 * Headless Chromium for the end-to-end page tests: the machine's Chromium (or Chrome) driven by
 * playwright-core, and an accessibility check with axe-core run inside the page. `npm run
 * test:setup` (scripts/test-setup.sh) finds or installs it the same way this file looks for it.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** CHROMIUM_PATH, else the first of chromium, chromium-browser, google-chrome on the PATH. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CHROMIUM_PATH) {
    if (executable(env.CHROMIUM_PATH)) return env.CHROMIUM_PATH;
    throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file`);
  }
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of NAMES) for (const dir of dirs) if (executable(join(dir, name))) return join(dir, name);
  throw new Error(
    `no Chromium for the page tests (CHROMIUM_PATH, or ${NAMES.join(', ')} on the PATH): run \`npm run test:setup\``,
  );
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core (WCAG 2.x A and AA rules and best practices) in the page; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // evaluated through the DevTools protocol: the page's own Content-Security-Policy stays as it is
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The number of marks (one per drawn value) of a chart, by its id ("transfer", "routines", …). */
export function marks(page: Page, chart: string): Promise<number> {
  return page.locator(`#fig-${chart} svg .mark`).count();
}

/** The sum of the values drawn by a chart's marks. */
export async function markTotal(page: Page, chart: string): Promise<number> {
  const values = await page
    .locator(`#fig-${chart} svg .mark`)
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
  return values.reduce((a, b) => a + b, 0);
}

/**
 * The chart texts (labels, legends, titles) drawn partly outside their SVG's viewport, where the
 * browser cuts them off: "<figure id>: <text>" for each. Each box is measured as drawn (rotation
 * included) against the SVG's own box.
 */
export function clippedChartTexts(page: Page): Promise<string[]> {
  return page.locator('svg.chart-svg text').evaluateAll((texts) =>
    texts.flatMap((text) => {
      const svg = text.closest('svg');
      if (!svg) return [];
      const box = svg.getBoundingClientRect();
      const r = text.getBoundingClientRect();
      const inside =
        r.left >= box.left - 0.5 &&
        r.right <= box.right + 0.5 &&
        r.top >= box.top - 0.5 &&
        r.bottom <= box.bottom + 0.5;
      return inside ? [] : [`${svg.closest('figure')?.id ?? '?'}: ${text.textContent ?? ''}`];
    }),
  );
}

/** The legend entries (key or name) of a chart that overlap another legend entry. */
export function overlappingLegendEntries(page: Page): Promise<string[]> {
  return page.locator('svg.chart-svg').evaluateAll((svgs) =>
    svgs.flatMap((svg) => {
      const entries = [...svg.querySelectorAll('.legend-key, .legend-label')];
      const boxes = entries.map((e) => e.getBoundingClientRect());
      return entries.flatMap((entry, i) => {
        const a = boxes[i];
        const overlaps = boxes.some(
          (b, j) => a && j !== i && b.left < a.right && a.left < b.right && b.top < a.bottom && a.top < b.bottom,
        );
        return overlaps && entry.classList.contains('legend-label')
          ? [`${svg.closest('figure')?.id ?? '?'}: ${entry.textContent ?? ''}`]
          : [];
      });
    }),
  );
}
