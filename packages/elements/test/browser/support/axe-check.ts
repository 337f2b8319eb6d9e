/** axe-core in the page under test: injected from node_modules, run on one element. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly helpUrl: string;
  readonly nodes: readonly { readonly target: unknown; readonly html: string; readonly failureSummary?: string }[];
}

/** Violations axe finds inside the element `selector` matches (its shadow tree included). */
export async function runAxe(page: Page, selector: string): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol rather than added as a <script>: a page whose CSP
  // refuses inline script (the hosted pages, issue #36) is checked as it is served.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (target) => {
    const axe = (window as unknown as { axe: { run(context: Element, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const element = document.querySelector(target);
    if (!element) throw new Error(`no element matches ${target}`);
    const result = await axe.run(element, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })),
    }));
  }, selector);
}

export function isSerious(violation: AxeViolation): boolean {
  return violation.impact === 'serious' || violation.impact === 'critical';
}

/** One readable paragraph per violation, for the assertion message. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.map((n) => `    at ${JSON.stringify(n.target)}: ${n.html}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`).join('\n');
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}`;
    })
    .join('\n');
}
