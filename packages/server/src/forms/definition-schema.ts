/**
 * Validation of a definition file's data against `schema/form-definition.schema.json`, the same
 * schema editors use, and translation of ajv's errors into path problems people can act on.
 */
import { readFileSync } from 'node:fs';
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FieldType, RuleDefinition } from '@svc/core';
import type { PathProblem, PathSegments } from './definition-problems.js';
import { assetUrl } from '../package-assets.js';
import type { FormTranslations } from './form-translations.js';

// ajv and ajv-formats are CommonJS with `exports.default`; under NodeNext the default import is
// the module object, whose `default` is the class / plugin.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

/** A scalar where the model wants a string: YAML authors write `5`, the model stores `"5"`. */
export type RawScalar = string | number;

export interface RawOptionObject {
  readonly value: RawScalar;
  readonly label?: string;
  readonly checked?: boolean;
  readonly recipients?: string | readonly string[];
}

export type RawOption = RawScalar | RawOptionObject;

export interface RawColumn {
  readonly label: string;
  readonly type: 'string' | 'number' | 'select' | 'checkbox' | 'file';
  readonly value?: RawScalar;
  readonly options?: readonly RawScalar[];
  readonly required?: boolean;
  readonly fileKinds?: readonly string[];
  readonly maxFileSizeKB?: number;
  readonly fileCount?: number;
}

/** A field as written; the schema guarantees only the properties of its `type` are present. */
export interface RawField {
  readonly type: FieldType;
  readonly handle?: string;
  readonly label?: string;
  readonly rules?: RuleDefinition | null;
  readonly value?: RawScalar;
  readonly values?: readonly RawScalar[];
  readonly options?: readonly RawOption[];
  readonly scales?: readonly RawOption[];
  readonly columns?: readonly RawColumn[];
  readonly [property: string]: unknown;
}

export type RawRow = readonly RawField[] | { readonly fields: readonly RawField[] };

export interface RawPage {
  readonly label?: string;
  readonly rules?: RuleDefinition | null;
  readonly rows: readonly RawRow[];
}

export interface RawFormFile {
  readonly handle?: string;
  readonly uid?: string;
  readonly name: string;
  readonly settings?: Readonly<Record<string, unknown>>;
  readonly pages?: readonly RawPage[];
  readonly fields?: readonly RawField[];
  readonly translations?: FormTranslations;
}

const SCHEMA_URL = assetUrl('schema/form-definition.schema.json');

let validator: ValidateFunction<RawFormFile> | undefined;

/** Compiled once, on first use, so importing this module costs nothing. */
function getValidator(): ValidateFunction<RawFormFile> {
  if (!validator) {
    const schema: unknown = JSON.parse(readFileSync(SCHEMA_URL, 'utf8'));
    // Union types (`string | number`) are part of the file format, so strict mode allows them.
    const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
    addFormats(ajv, ['email', 'uuid', 'date', 'uri']);
    validator = ajv.compile<RawFormFile>(schema as object);
  }
  return validator;
}

export type SchemaResult =
  | { readonly valid: true; readonly data: RawFormFile }
  | { readonly valid: false; readonly problems: readonly PathProblem[] };

export function validateDefinitionData(data: unknown): SchemaResult {
  const validate = getValidator();
  if (validate(data)) return { valid: true, data };
  const problems: PathProblem[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const problem = describeError(error, data);
    if (!problem) continue;
    const key = `${problem.path.join('\u0000')}\u0001${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return { valid: false, problems };
}

/** Turns a JSON pointer into segments, using the data to tell array indexes from keys. */
function pointerToSegments(pointer: string, data: unknown): (string | number)[] {
  if (pointer === '') return [];
  const segments: (string | number)[] = [];
  let node = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      const index = Number(key);
      segments.push(index);
      node = node[index];
    } else {
      segments.push(key);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return segments;
}

function describeError(error: ErrorObject, data: unknown): PathProblem | undefined {
  const path = pointerToSegments(error.instancePath, data);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'if':
      // "must match then schema": the errors inside the branch say what is actually wrong.
      return undefined;
    case 'required': {
      const missing = String(params['missingProperty']);
      if (path.length === 0 && missing === 'fields') {
        return { path, message: 'must have `pages` or `fields` (a single page)' };
      }
      return { path: [...path, missing], message: 'is required' };
    }
    case 'additionalProperties':
      return { path: [...path, String(params['additionalProperty'])], message: 'unknown property' };
    case 'not':
      // The schema uses `not: {}` only to forbid a property in one context.
      return { path, message: forbiddenMessage(path) };
    case 'enum': {
      const allowed = (params['allowedValues'] as readonly unknown[]).map((value) => String(value));
      return { path, message: `must be one of: ${allowed.join(', ')}` };
    }
    case 'type':
      return { path, message: `must be ${String(params['type']).split(',').join(' or ')}` };
    case 'minItems':
    case 'minLength':
      // "must NOT have fewer than 1 items" says "must not be empty" the long way round.
      return params['limit'] === 1 ? { path, message: 'must not be empty' } : { path, message: error.message ?? 'is too short' };
    default:
      return { path, message: error.message ?? 'is invalid' };
  }
}

/** Says why a property is forbidden where it is. */
function forbiddenMessage(path: PathSegments): string {
  if (path.length === 1 && path[0] === 'fields') return 'use either `pages` or `fields`, not both';
  if (path[path.length - 1] === 'handle') return 'submit fields have no handle';
  return 'is not allowed here';
}
