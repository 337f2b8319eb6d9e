/**
 * Submission titles from `submissionTitleFormat`, rendered with LiquidJS in a sandbox: no file
 * system, own properties only, output capped, so a form file can't read or run anything.
 */
import { Liquid, type Template } from 'liquidjs';
import type { Values } from '@svc/core';

const liquid = new Liquid({
  ownPropertyOnly: true,
  strictFilters: true,
  // No partials: with no `root`, `include`/`render` cannot reach the file system.
  relativeReference: false,
  dynamicPartials: false,
  outputEscape: undefined,
  renderLimit: 50,
  parseLimit: 10_000,
  memoryLimit: 1_000_000,
});

const parsed = new Map<string, Template[]>();

function templateFor(format: string): Template[] {
  let template = parsed.get(format);
  if (!template) {
    template = liquid.parse(format);
    parsed.set(format, template);
  }
  return template;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC: readable in lists and stable across servers. */
export function formatTitleDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function renderSubmissionTitle(
  format: string,
  scope: { values: Values; formName: string; dateCreated: Date },
): string {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(scope.values)) {
    flat[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  try {
    const text = liquid.renderSync(templateFor(format), {
      ...flat,
      values: flat,
      form: { name: scope.formName },
      dateCreated: formatTitleDate(scope.dateCreated),
    }) as string;
    const title = text.replace(/\s+/g, ' ').trim();
    return (title || formatTitleDate(scope.dateCreated)).slice(0, 255);
  } catch {
    // A broken format must never cost a submission; fall back to the date.
    return formatTitleDate(scope.dateCreated);
  }
}

/** Parse a format up front so `forms check` can report a broken template. */
export function checkTitleFormat(format: string): string | null {
  try {
    templateFor(format);
    return null;
  } catch (error) {
    return (error as Error).message.split('\n')[0] ?? 'invalid template';
  }
}
