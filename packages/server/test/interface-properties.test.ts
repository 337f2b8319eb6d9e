/**
 * Every type-specific property of interface.md §2.6, for every field type of the kitchen-sink
 * form, in the REST manifest and in the GraphQL fragment (issue #11): one table, so none can go
 * missing again. The table itself is checked against interface.md when the spec is beside us.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { FIELD_TYPES, INTERFACE_FIELD_PROPERTIES, MANIFEST_TOP_LEVEL_PROPERTIES, fieldTypeFromWire, type FieldType } from '@svc/core';
import { fieldTypeName } from '../src/graphql/graphql-field-types.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { postGraphql } from './support/graphql-client.js';

const SPEC = resolve(import.meta.dirname, '../../../../shared/spec/interface.md');
/** Object-typed properties need a selection in GraphQL. */
const SELECTIONS: Readonly<Record<string, string>> = { options: 'options { value label checked }', scales: 'scales { value label }' };
/** Where the manifest keeps the top-level ones (contract §2). */
const TOP_LEVEL_KEY: Readonly<Record<string, string>> = { value: 'defaultValue', values: 'defaultValue', placeholder: 'placeholder', options: 'options' };

type ManifestFields = Record<string, { type: string; config: Record<string, unknown> } & Record<string, unknown>>;

/** interface.md §2.6 as a map of SvcField_<Type> to its property names. */
function specProperties(): Map<string, string[]> {
  const text = readFileSync(SPEC, 'utf8');
  const section = text.slice(text.indexOf('### 2.6'), text.indexOf('### 2.7'));
  const out = new Map<string, string[]>();
  let current = '';
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || cells[1] === 'Fragment type' || cells[1]?.startsWith('---')) continue;
    if (cells[1]) current = cells[1];
    if (current && cells[2]) out.set(current, [...(out.get(current) ?? []), cells[2]]);
  }
  return out;
}

describe('interface.md §2.6 properties', () => {
  let svc: TestApp;
  let fields: ManifestFields;
  beforeAll(async () => {
    svc = await createTestApp();
    fields = (await svc.app.inject({ method: 'GET', url: '/svc/api/forms/kitchen-sink/manifest' })).json().data.fields;
  });
  afterAll(async () => {
    await svc?.close();
  });

  const rows = FIELD_TYPES.filter((t) => t !== 'submit').flatMap((type) => INTERFACE_FIELD_PROPERTIES[type].map((property) => [type, property] as const));
  const handleOf = (type: FieldType) => {
    const entry = Object.entries(fields).find(([, f]) => fieldTypeFromWire(f.type) === type);
    if (!entry) throw new Error(`kitchen-sink has no ${type} field`);
    return entry[0];
  };

  it.each(rows)('the manifest carries %s.%s', (type, property) => {
    const field = fields[handleOf(type)]!;
    if (MANIFEST_TOP_LEVEL_PROPERTIES.has(property)) expect(field).toHaveProperty(TOP_LEVEL_KEY[property] as string);
    else expect(Object.hasOwn(field.config, property), `${type} config: ${Object.keys(field.config).join(', ')}`).toBe(true);
  });

  it.each(rows)('the GraphQL fragment serves %s.%s', async (type, property) => {
    const handle = handleOf(type);
    const query = `{ svc { form(handle: "kitchen-sink") { fields(handle: "${handle}") { ... on ${fieldTypeName(type)} { ${SELECTIONS[property] ?? property} } } } } }`;
    const { body } = await postGraphql<{ svc: { form: { fields: Record<string, unknown>[] } } }>(svc, query);
    expect(body.errors).toBeUndefined();
    expect(body.data?.svc.form.fields[0]).toHaveProperty(property);
  });

  it.skipIf(!existsSync(SPEC))('lists exactly the properties interface.md §2.6 names, type by type', () => {
    const spec = specProperties();
    // `hidden` and `payment` are svc's own types (interface.md has no fragment for them).
    for (const type of FIELD_TYPES.filter((t) => t !== 'hidden' && t !== 'payment')) {
      expect(INTERFACE_FIELD_PROPERTIES[type], type).toEqual(spec.get(fieldTypeName(type)));
    }
  });
});
