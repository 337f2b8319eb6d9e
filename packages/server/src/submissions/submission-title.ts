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

type Scope = Readonly<Record<string, unknown>>;
type SimpleRenderer = (scope: Scope) => string | null;

/** `{{ name }}` / `{{ a.b }}` with no filters: the shape of almost every title format. */
const SIMPLE_OUTPUT = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;
const simple = new Map<string, SimpleRenderer | null>();

function lookup(scope: Scope, path: readonly string[]): unknown {
  let node: unknown = scope;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Liquid costs tens of microseconds per render on the submit path; a format made only of text and
 * plain variable outputs is compiled to a concatenation that prints exactly what Liquid prints for
 * strings, numbers, booleans and missing values. Anything else (filters, tags, objects) is
 * rendered by Liquid itself; a test keeps the two in agreement.
 */
export function compileSimpleTitle(format: string): SimpleRenderer | null {
  const text = format.replace(SIMPLE_OUTPUT, '');
  if (text.includes('{{') || text.includes('{%') || text.includes('}}') || text.includes('%}')) return null;
  const parts: (string | readonly string[])[] = [];
  let last = 0;
  for (const match of format.matchAll(SIMPLE_OUTPUT)) {
    parts.push(format.slice(last, match.index));
    parts.push((match[1] as string).split('.'));
    last = match.index + match[0].length;
  }
  parts.push(format.slice(last));
  return (scope) => {
    let out = '';
    for (const part of parts) {
      if (typeof part === 'string') {
        out += part;
        continue;
      }
      const value = lookup(scope, part);
      if (value === undefined || value === null) continue;
      if (typeof value === 'object') return null;
      out += String(value);
    }
    return out;
  };
}

function simpleRendererFor(format: string): SimpleRenderer | null {
  if (!simple.has(format)) simple.set(format, compileSimpleTitle(format));
  return simple.get(format) ?? null;
}

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
  const context = { ...flat, values: flat, form: { name: scope.formName }, dateCreated: formatTitleDate(scope.dateCreated) };
  try {
    const text = simpleRendererFor(format)?.(context) ?? (liquid.renderSync(templateFor(format), context) as string);
    const title = text.replace(/\s+/g, ' ').trim();
    return (title || formatTitleDate(scope.dateCreated)).slice(0, 255);
  } catch {
    // A broken format must never cost a submission; fall back to the date.
    return formatTitleDate(scope.dateCreated);
  }
}

/** Liquid's own rendering of a format, for tests that hold the fast path to it. */
export function renderWithLiquid(format: string, scope: Scope): string {
  return liquid.renderSync(templateFor(format), scope) as string;
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
