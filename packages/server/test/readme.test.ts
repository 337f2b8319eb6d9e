/** The README is the front door: every config key and error code must be documented there. */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { runCommand } from './support/svc-command.js';
import { resolve } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { ERROR_CATALOGUE } from '@svc/core';
import { ConfigSchema } from '../src/config/config-schema.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

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

  // issue #31: a newcomer counted the forms the banner listed against the README's word.
  it('counts the example forms there are', () => {
    const forms = readdirSync(resolve(ROOT, 'examples/forms')).filter((name) => /\.(ya?ml|json)$/.test(name));
    expect(README).toContain(`with ${NUMBER_WORDS[forms.length]} example forms`);
  });

  it('has a forms check line that runs as written from the checkout', async () => {
    const line = README.split('\n').find((l) => /^npm run (-s )?svc -- forms check/.test(l));
    expect(line).toBeDefined();
    const command = (line as string).replace(/\s+#.*$/, '');
    const run = await runCommand('bash', ['-c', command], { cwd: ROOT, timeoutMs: 90_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\d+ form\(s\) OK/);
  }, 120_000);

  it('names the test command CI runs', () => {
    expect(README).toContain('npm test');
    expect(readFileSync(resolve(import.meta.dirname, '../../../.ci/run'), 'utf8')).toMatch(/^npm test$/m);
  });
});
