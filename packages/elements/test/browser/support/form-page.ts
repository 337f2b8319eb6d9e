/** Steps every browser test repeats: open a page with a form and wait for its first render. */
import type { Locator } from 'playwright-core';
import type { TrackedPage } from './browser-harness.js';

export const RENDER_TIMEOUT_MS = 10_000;

/**
 * Goes to `url` and waits until `<svc-form handle=…>` (or the element `selector` names, such as
 * `svc-form[profile="member"]`) is defined and its `ready` has resolved.
 */
export async function openForm(tracked: TrackedPage, url: string, handle: string, selector = `svc-form[handle="${handle}"]`): Promise<Locator> {
  if (tracked.scriptProblem) throw new Error(`the element's script is not served, so ${selector} cannot render: ${tracked.scriptProblem}`);
  const { page } = tracked;
  await page.goto(url, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
  const failure = await page.evaluate(
    async ({ target, ms }) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(customElements.get('svc-form') ? `ready did not resolve within ${ms} ms` : `svc-form was not defined within ${ms} ms`), ms);
      });
      const rendered = (async () => {
        await customElements.whenDefined('svc-form');
        const element = document.querySelector(target) as (HTMLElement & { ready?: Promise<unknown> }) | null;
        if (!element) return `no ${target} on the page`;
        if (!(element.ready instanceof Promise)) return 'the element has no ready promise';
        await element.ready;
        return null;
      })().catch((error: unknown) => `ready rejected: ${error instanceof Error ? error.message : String(error)}`);
      const result = await Promise.race([rendered, late]);
      clearTimeout(timer);
      return result;
    },
    { target: selector, ms: RENDER_TIMEOUT_MS },
  );
  if (failure) throw new Error(`${selector} did not render at ${url}: ${failure}${pageProblems(tracked)}`);
  return page.locator(selector);
}

/** The problems the page reported, as a suffix for assertion messages. */
export function pageProblems(tracked: TrackedPage): string {
  return tracked.problems.length > 0 ? `\npage reported:\n  ${tracked.problems.join('\n  ')}` : '';
}

/** The visible controls matching `selector` (pages not shown may keep their buttons in the tree). */
export function visible(form: Locator, selector: string): Locator {
  return form.locator(selector).filter({ visible: true });
}

/** The first match's text with white space folded, or '' when nothing matches. */
export async function text(locator: Locator): Promise<string> {
  return ((await locator.count()) > 0 ? await locator.first().textContent() : '')?.replace(/\s+/g, ' ').trim() ?? '';
}
