import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const AXE = fileURLToPath(new URL('../../../node_modules/axe-core/axe.min.js', import.meta.url));
export const SCREENSHOTS = fileURLToPath(new URL('../../../test-results/console/', import.meta.url));

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly string[];
}

/**
 * Runs axe-core in the page and answers its serious and critical violations. The page's CSP forbids injected
 * script tags, so axe's source is evaluated over the DevTools protocol, which the CSP does not govern; the page
 * itself runs exactly as served.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate<boolean>('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(readFileSync(AXE, 'utf8'));
  return page.evaluate<AxeViolation[]>(`
    window.axe.run(document, { resultTypes: ['violations'] }).then((result) =>
      result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })))
  `);
}

/** A full-page screenshot under test-results/console/ (kept as a CI artifact), named after the page. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Both checks every console page gets: the screenshot, then axe. */
export async function checkPage(page: Page, name: string): Promise<AxeViolation[]> {
  await screenshot(page, name);
  return seriousAxeViolations(page);
}
