/**
 * Turns a validated definition plus its persisted identities into the `Form` the services use:
 * positions, identities, row ids and a content version (the manifest ETag follows it).
 */
import { createHash } from 'node:crypto';
import type { Field, FieldDefinition, Form, FormDefinition, Page, Row } from '@svc/core';
import type { FormIdentity } from './form-identity-repository.js';

/** The identity key of a field: its handle, or `submit@<page>` for a page's submit button. */
export function fieldKey(field: FieldDefinition, pageIndex: number): string {
  return field.handle ?? `submit@${pageIndex}`;
}

export function definitionFieldKeys(definition: FormDefinition): string[] {
  return definition.pages.flatMap((page, pageIndex) => page.rows.flat().map((field) => fieldKey(field, pageIndex)));
}

export function definitionVersion(definition: FormDefinition): string {
  return createHash('sha256').update(JSON.stringify(definition)).digest('base64url').slice(0, 22);
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 10);
}

export function buildForm(definition: FormDefinition, identity: FormIdentity, version: string): Form {
  const fields: Field[] = [];
  const pages: Page[] = definition.pages.map((page, pageIndex) => {
    const rows: Row[] = page.rows.map((row, rowIndex) => {
      const rowFields = row.map((definitionField) => {
        const id = identity.fields.get(fieldKey(definitionField, pageIndex));
        if (!id) throw new Error(`No identity for field ${fieldKey(definitionField, pageIndex)}`);
        const field = { ...definitionField, ...id, pageIndex, rowIndex } as Field;
        if (field.type !== 'submit') fields.push(field);
        return field;
      });
      return {
        id: shortHash(`${identity.uid}:${pageIndex}:${rowIndex}:${rowFields.map((f) => f.uid).join(',')}`),
        fields: rowFields,
      };
    });
    return {
      index: pageIndex,
      uid: shortHash(`${identity.uid}:page:${pageIndex}`),
      label: page.label,
      rows,
      rules: page.rules ?? null,
    };
  });
  return {
    id: identity.id,
    uid: identity.uid,
    hash: identity.hash,
    handle: definition.handle,
    name: definition.name,
    settings: definition.settings,
    pages,
    fields,
    fieldsByHandle: new Map(fields.map((f) => [f.handle as string, f])),
    version,
  };
}
