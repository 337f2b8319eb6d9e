/**
 * `SVC_*` environment overrides. A variable names a config path with `__` between levels and
 * SCREAMING_SNAKE segments: `SVC_SERVER__PORT=8080`, `SVC_HEADLESS__ALLOWED_ORIGINS=https://a.test`,
 * `SVC_HEADLESS__FORMS__KITCHEN_SINK__ALLOW_SUBMIT=true`. A `_FILE` suffix reads the value from a
 * file (`SVC_SECRET_FILE=/run/secrets/svc`), so secrets need not sit in the environment.
 */
import { readFileSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import { ConfigSchema } from './config-schema.js';

export interface EnvProblem {
  readonly path: string;
  readonly message: string;
}

type Json = unknown;

function camel(segment: string): string {
  return segment.toLowerCase().replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Walk the schema so map keys (form handles, profile names) stay kebab-case, not camelCase. */
function childSchema(schema: TSchema | undefined, segment: string): { key: string; schema: TSchema | undefined } {
  if (!schema) return { key: camel(segment), schema: undefined };
  const props = (schema as { properties?: Record<string, TSchema> }).properties;
  if (props) {
    const key = camel(segment);
    return { key, schema: props[key] };
  }
  const pattern = (schema as { patternProperties?: Record<string, TSchema> }).patternProperties;
  if (pattern) {
    const [first] = Object.values(pattern);
    return { key: segment.toLowerCase().replace(/_/g, '-'), schema: first };
  }
  return { key: camel(segment), schema: undefined };
}

function parseValue(text: string, schema: TSchema | undefined): Json {
  const trimmed = text.trim();
  if (/^[[{"]/.test(trimmed) || /^(true|false|null|-?\d+(\.\d+)?)$/.test(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch {
      // Not JSON after all: fall through and keep it as text.
    }
  }
  if ((schema as { type?: string } | undefined)?.type === 'array') {
    return trimmed === '' ? [] : trimmed.split(',').map((s) => s.trim());
  }
  return text;
}

function setPath(target: Record<string, Json>, keys: readonly string[], value: Json): void {
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, Json>;
  }
  node[keys[keys.length - 1] as string] = value;
}

/** Apply every SVC_* variable (and PORT) onto a copy of `raw`. */
export function applyEnvOverrides(
  raw: Record<string, Json>,
  env: Readonly<Record<string, string | undefined>>,
): { config: Record<string, Json>; problems: EnvProblem[] } {
  const config = structuredClone(raw);
  const problems: EnvProblem[] = [];
  const names = Object.keys(env).filter((n) => n.startsWith('SVC_')).sort();
  for (const name of names) {
    // SVC_OPENAPI_STRICT switches on the test suites' OpenAPI drift check (openapi-strict.ts), not a key.
    if (name === 'SVC_CONFIG' || name === 'SVC_OPENAPI_STRICT' || name.startsWith('SVC_TEST_')) continue;
    let text = env[name] as string;
    let spec = name.slice(4);
    if (spec.endsWith('_FILE')) {
      spec = spec.slice(0, -5);
      try {
        text = readFileSync(text, 'utf8').replace(/\r?\n$/, '');
      } catch {
        problems.push({ path: name, message: `cannot read the file named by ${name}` });
        continue;
      }
    }
    let schema: TSchema | undefined = ConfigSchema;
    const keys: string[] = [];
    for (const segment of spec.split('__')) {
      const child = childSchema(schema, segment);
      keys.push(child.key);
      schema = child.schema;
    }
    if (!schema) {
      problems.push({ path: name, message: `${name} names no config key (${keys.join('.')})` });
      continue;
    }
    setPath(config, keys, parseValue(text, schema));
  }
  if (env.PORT !== undefined && env.PORT !== '') {
    setPath(config, ['server', 'port'], parseValue(env.PORT, undefined));
  }
  return { config, problems };
}
