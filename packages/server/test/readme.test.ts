/** The README is the front door: every config key and error code must be documented there. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { ERROR_CATALOGUE } from '@svc/core';
import { ConfigSchema } from '../src/config/config-schema.js';

const README = readFileSync(resolve(import.meta.dirname, '../../../README.md'), 'utf8');

function leafKeys(schema: TSchema, prefix: string): string[] {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties;
  if (properties) return Object.entries(properties).flatMap(([key, child]) => leafKeys(child, prefix ? `${prefix}.${key}` : key));
  const pattern = (schema as { patternProperties?: Record<string, TSchema> }).patternProperties;
  if (pattern) {
    const [child] = Object.values(pattern);
    return child && (child as { properties?: unknown }).properties ? leafKeys(child, `${prefix}.<handle>`) : [prefix];
  }
  return [prefix];
}

describe('the README', () => {
  it.each(leafKeys(ConfigSchema, ''))('documents the config key %s', (key) => {
    expect(README).toContain(`| \`${key}\` |`);
  });

  it.each(Object.entries(ERROR_CATALOGUE))('documents the error code %s with its status', (code, entry) => {
    expect(README).toContain(`| \`${code}\` | ${entry.status} |`);
  });

  it('names the test command CI runs', () => {
    expect(README).toContain('npm test');
    expect(readFileSync(resolve(import.meta.dirname, '../../../.ci/run'), 'utf8')).toMatch(/^npm test$/m);
  });
});
