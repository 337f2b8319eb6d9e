/**
 * The configuration reference of docs/configuration.md, written from the config schema (issue #33):
 * one row per key with its default and the schema's description, so the page cannot drift from
 * what the loader validates. `npm run docs:config` rewrites the table between the page's two
 * marker comments; packages/server/test/docs-config-reference.test.ts fails when the page differs
 * from what this would write now.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TSchema } from '@sinclair/typebox';
import { ConfigSchema } from '../src/config/config-schema.js';

export const CONFIG_PAGE = resolve(import.meta.dirname, '../../../docs/configuration.md');
export const START_MARKER = '<!-- config-reference:start -->';
export const END_MARKER = '<!-- config-reference:end -->';

interface SchemaNode {
  readonly properties?: Record<string, SchemaNode>;
  readonly patternProperties?: Record<string, SchemaNode>;
  readonly items?: SchemaNode;
  readonly anyOf?: readonly SchemaNode[];
  readonly required?: readonly string[];
  readonly default?: unknown;
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly type?: string | readonly string[];
}

export interface ConfigKeyRow {
  readonly key: string;
  readonly defaultText: string;
  readonly meaning: string;
}

/** `value` as the table shows a default: code for scalars, the handles of a list of objects. */
function formatDefault(value: unknown): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '`[]`';
    // A list of records (submissions.statuses) reads better as the handles it names.
    if (value.every((item) => item && typeof item === 'object')) {
      return value.map((item) => `\`${String((item as { handle?: unknown; name?: unknown }).handle ?? (item as { name?: unknown }).name)}\``).join(', ');
    }
    return value.map((item) => `\`${String(item)}\``).join(', ');
  }
  if (value === '') return "`''`";
  if (value && typeof value === 'object') return Object.keys(value).length === 0 ? '`{}`' : `\`${JSON.stringify(value)}\``;
  return `\`${String(value)}\``;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** The object schema inside `node`, looking through a `T | null` union. */
function objectOf(node: SchemaNode | undefined): SchemaNode | undefined {
  if (!node) return undefined;
  if (node.properties) return node;
  return node.anyOf?.find((branch) => branch.properties);
}

/**
 * Every key of the schema, depth first in the schema's own order: nested objects by their path,
 * records of objects (per form, per profile) as `<handle>`, and the fields of a list of objects
 * (`auth.issuers[].jwksUrl`) under the list's own row.
 */
export function configKeyRows(schema: TSchema = ConfigSchema): ConfigKeyRow[] {
  const rows: ConfigKeyRow[] = [];
  const problems: string[] = [];
  const visit = (node: SchemaNode, key: string, required: boolean): void => {
    if (node.properties) {
      for (const [name, child] of Object.entries(node.properties)) visit(child, key ? `${key}.${name}` : name, node.required?.includes(name) ?? false);
      return;
    }
    const record = node.patternProperties ? Object.values(node.patternProperties)[0] : undefined;
    if (record?.properties) {
      visit(record, `${key}.<handle>`, false);
      return;
    }
    if (!node.description) problems.push(key);
    const defaultText = 'default' in node ? formatDefault(node.default) : required ? 'required' : 'none';
    rows.push({ key, defaultText, meaning: cell(node.description ?? '') });
    const item = objectOf(node.items);
    if (item?.properties) {
      for (const [name, child] of Object.entries(item.properties)) {
        if (!child.description) continue; // a field without its own words is described by the list's row
        const fieldDefault = 'default' in child ? formatDefault(child.default) : item.required?.includes(name) ? 'required' : 'none';
        rows.push({ key: `${key}[].${name}`, defaultText: fieldDefault, meaning: cell(child.description) });
      }
    }
  };
  visit(schema as unknown as SchemaNode, '', false);
  if (problems.length > 0) throw new Error(`config keys without a description in the schema: ${problems.join(', ')}`);
  return rows;
}

/** The markdown table that goes between the page's markers. */
export function renderConfigReference(schema: TSchema = ConfigSchema): string {
  const lines = ['| key | default | meaning |', '|---|---|---|'];
  for (const row of configKeyRows(schema)) lines.push(`| \`${row.key}\` | ${row.defaultText} | ${row.meaning} |`);
  return lines.join('\n');
}

/** `page` with the table between its markers replaced by `table`. */
export function withConfigReference(page: string, table: string): string {
  const start = page.indexOf(START_MARKER);
  const end = page.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`docs/configuration.md needs ${START_MARKER} and then ${END_MARKER}`);
  return `${page.slice(0, start + START_MARKER.length)}\n${table}\n${page.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const page = readFileSync(CONFIG_PAGE, 'utf8');
  const next = withConfigReference(page, renderConfigReference());
  writeFileSync(CONFIG_PAGE, next);
  console.log(next === page ? 'docs/configuration.md: already up to date' : 'docs/configuration.md: configuration reference rewritten');
}
