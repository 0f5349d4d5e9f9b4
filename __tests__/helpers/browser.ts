/**
 * Headless Chromium for the end-to-end page tests: Debian's `chromium` driven by playwright-core
 * (.ci/run installs it when missing), and an accessibility check with axe-core run inside the page.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
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
