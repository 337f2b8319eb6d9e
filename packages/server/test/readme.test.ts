/**
 * The README is the front door (issue #33): at most 250 lines, a link to every docs page, the
 * example forms counted right, the test command CI runs. What it used to hold is checked where it
 * moved: every config key in docs/configuration.md, whose reference is what
 * packages/server/scripts/config-reference.ts writes from the schema now, and every error code
 * with its status in docs/rest.md.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { ERROR_CATALOGUE } from '@svc/core';
import { ConfigSchema } from '../src/config/config-schema.js';
import { CONFIG_PAGE, renderConfigReference, withConfigReference } from '../scripts/config-reference.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const CONFIGURATION = readFileSync(CONFIG_PAGE, 'utf8');
const REST = readFileSync(resolve(ROOT, 'docs/rest.md'), 'utf8');
const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
/** Pages others write for issue #33 that the README must link as well. */
const ALSO_LINKED = ['CHANGELOG.md'];

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

describe('the README, a front door', () => {
  it('is at most 250 lines', () => {
    expect(README.trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it.each([...readdirSync(resolve(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`), ...ALSO_LINKED])('links %s', (page) => {
    expect(README).toContain(`](${page})`);
  });

  // issue #31: a newcomer counted the forms the banner listed against the README's word.
  it('counts the example forms there are', () => {
    const forms = readdirSync(resolve(ROOT, 'examples/forms')).filter((name) => /\.(ya?ml|json)$/.test(name));
    expect(README).toContain(`with ${NUMBER_WORDS[forms.length]} example forms`);
  });

  it('names the test command CI runs', () => {
    expect(README).toMatch(/^npm test$/m);
    expect(readFileSync(resolve(ROOT, '.ci/run'), 'utf8')).toMatch(/^npm test$/m);
  });
});

describe('the configuration reference', () => {
  it('is what the config schema writes now', () => {
    const fresh = withConfigReference(CONFIGURATION, renderConfigReference());
    expect(CONFIGURATION === fresh, 'docs/configuration.md differs from the config schema: run `npm run docs:config` and commit the page').toBe(true);
  });

  it.each(leafKeys(ConfigSchema, ''))('documents the config key %s', (key) => {
    expect(CONFIGURATION).toContain(`| \`${key}\` |`);
  });
});

describe('the error codes', () => {
  it.each(Object.entries(ERROR_CATALOGUE))('docs/rest.md documents the error code %s with its status', (code, entry) => {
    expect(REST).toContain(`| \`${code}\` | ${entry.status} |`);
  });
});
