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
/** The names at the root of its outputs' paths are what a title's scope must hold. */
type SimpleRenderer = ((scope: Scope) => string | null) & { readonly roots: readonly string[] };

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
  const roots = [...new Set(parts.flatMap((part) => (typeof part === 'string' ? [] : [part[0] as string])))];
  const render = (scope: Scope) => {
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
  return Object.assign(render, { roots });
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

/** A field's value as a title shows it: a list joined with commas. */
const titleValue = (value: unknown) => (Array.isArray(value) ? value.join(', ') : value);

export function renderSubmissionTitle(format: string, scope: TitleInput): string {
  try {
    const fast = simpleRendererFor(format);
    const text = fast?.(titleScope(scope, fast.roots)) ?? (liquid.renderSync(templateFor(format), titleScope(scope, null)) as string);
    const title = text.replace(/\s+/g, ' ').trim();
    return (title || formatTitleDate(scope.dateCreated)).slice(0, 255);
  } catch {
    // A broken format must never cost a submission; fall back to the date.
    return formatTitleDate(scope.dateCreated);
  }
}

type TitleInput = { values: Values; formName: string; dateCreated: Date };

/** The names a format reads from the submission itself rather than from a field of that name. */
const OWN_NAMES = new Set(['values', 'form', 'dateCreated']);

function ownValue(scope: TitleInput, name: string): unknown {
  if (name === 'form') return { name: scope.formName };
  if (name === 'dateCreated') return formatTitleDate(scope.dateCreated);
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(scope.values)) flat[key] = titleValue(value);
  return flat;
}

/**
 * What a format sees: every field's value by its handle and under `values`, `form.name` and
 * `dateCreated`, which win over fields of the same names. `roots` (a simple format's) limits it to
 * the names the format reads, so a title of two fields does not copy every value (issue #17).
 */
function titleScope(scope: TitleInput, roots: readonly string[] | null): Scope {
  if (roots === null) {
    const values = ownValue(scope, 'values') as Record<string, unknown>;
    return { ...values, values, form: ownValue(scope, 'form'), dateCreated: ownValue(scope, 'dateCreated') };
  }
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const root of roots) {
    if (OWN_NAMES.has(root)) out[root] = ownValue(scope, root);
    else if (Object.hasOwn(scope.values, root)) out[root] = titleValue(scope.values[root]);
  }
  return out;
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
