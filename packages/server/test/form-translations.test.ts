/**
 * Translations in form files and the sites config (issue #34): `svc forms check` refuses a
 * translation of what the form does not have and lists what a language leaves untranslated; a
 * site language picks the best translation; the config refuses sites it could not serve.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../src/config/config-loader.js';
import { pickTranslation } from '../src/forms/form-translations.js';
import { runSvc } from './support/svc-command.js';
import { TEST_SECRET } from './support/test-app.js';

const dirs: string[] = [];
function formsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-translations-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const SURVEY = `name: Survey
pages:
  - label: You
    rows:
      - - { type: text, handle: name, label: Name, placeholder: Ann Example }
        - type: select
          handle: colour
          label: Favourite colour
          options: [{ value: red, label: Red }, { value: blue, label: Blue }]
      - - { type: submit, labelNext: Next }
  - label: More
    rows:
      - - { type: textarea, handle: notes, label: Notes, instructions: Anything else? }
      - - { type: submit, label: Send, labelPrev: Back }
`;

describe('svc forms check on translations', () => {
  it('refuses a translation naming a field, option or page the form does not have, with its line', async () => {
    const dir = formsDir({
      'survey.yaml': `${SURVEY}translations:
  de:
    pages: { 5: Mehr }
    fields:
      nmae: { label: Name }
      colour: { label: Lieblingsfarbe, options: { green: Grün } }
`,
    });
    const run = await runSvc(['forms', 'check', dir], { timeoutMs: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/survey\.yaml:\d+:\d+ translations\.de\.pages\["5"\]: the form has no page 5/);
    expect(run.stderr).toMatch(/survey\.yaml:\d+:\d+ translations\.de\.fields\.nmae: the form has no field "nmae"/);
    expect(run.stderr).toMatch(/translations\.de\.fields\.colour\.options\.green: field "colour" has no option "green"/);
  });

  it('refuses a translation key that is not a language tag and a translated property the schema does not know', async () => {
    const dir = formsDir({
      'survey.yaml': `${SURVEY}translations:\n  not_a_tag: { name: X }\n`,
      'poll.yaml': `${SURVEY}translations:\n  fr: { title: Enquête }\n`,
    });
    const run = await runSvc(['forms', 'check', dir], { timeoutMs: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/translations\.not_a_tag: "not_a_tag" is not a BCP 47 language tag/);
    expect(run.stderr).toMatch(/translations\.fr\.title: unknown property/);
  });

  it('lists the strings each language leaves untranslated as warnings, and passes', async () => {
    const dir = formsDir({
      'survey.yaml': `${SURVEY}translations:
  de:
    name: Umfrage
    successMessage: Danke!
    errorMessage: Bitte prüfen Sie Ihre Angaben.
    pages: { 0: Sie, 1: Mehr }
    submitButton: Senden
    nextButton: Weiter
    backButton: Zurück
    fields:
      name: { label: Name, placeholder: Erika Muster }
      colour: { label: Lieblingsfarbe, options: { red: Rot } }
      notes: { label: Anmerkungen, instructions: Sonst noch etwas? }
  ar:
    name: استبيان
`,
    });
    const run = await runSvc(['forms', 'check', dir], { timeoutMs: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/translations\.de: 1 string\(s\) not translated .*: fields\.colour\.options\.blue$/);
    expect(warnings[1]).toMatch(/translations\.ar: \d+ string\(s\) not translated/);
    expect(warnings[1]).toContain('successMessage, errorMessage, pages.0, pages.1, submitButton, nextButton, backButton, fields.name.label, fields.name.placeholder');
    expect(warnings[1]).not.toContain(' name,');
    expect(run.stdout).toMatch(/1 form\(s\) OK/);
  });
});

describe('which translation a site reads', () => {
  const translations = { de: { name: 'Umfrage' }, 'de-CH': { name: 'Umfrage (CH)' }, AR: { name: 'استبيان' } };

  it('takes the exact tag, else the tag shortened a subtag at a time, case-insensitively', () => {
    expect(pickTranslation(translations, 'de-CH')?.strings.name).toBe('Umfrage (CH)');
    expect(pickTranslation(translations, 'de-DE')?.strings.name).toBe('Umfrage');
    expect(pickTranslation(translations, 'de-Latn-AT')?.tag).toBe('de');
    expect(pickTranslation(translations, 'ar-EG')?.tag).toBe('AR');
    expect(pickTranslation(translations, 'fr-FR')).toBeNull();
    // A broader site does not take a narrower translation: de-CH's words are not every German site's.
    expect(pickTranslation({ 'de-CH': { name: 'x' } }, 'de')).toBeNull();
  });
});

describe('the sites config', () => {
  const load = (sites: unknown) => loadConfig({ file: null, env: { SVC_SECRET: TEST_SECRET }, values: { sites } });
  const problems = (sites: unknown): readonly string[] => {
    try {
      load(sites);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    throw new Error('expected a ConfigError');
  };

  it('is one default site in en-US when unset', () => {
    expect(load(undefined).sites).toEqual([]);
  });

  it('refuses a list without exactly one default, repeated handles, bad language tags and time zones, all at once', () => {
    const found = problems([
      { handle: 'de', language: 'de_DE' },
      { handle: 'de', language: 'de', timezone: 'Mars/Olympus' },
    ]);
    expect(found).toEqual(expect.arrayContaining([
      expect.stringMatching(/^sites\.0\.language: "de_DE" is not a BCP 47 language tag/),
      expect.stringMatching(/^sites\.1\.handle: "de" is also the handle of sites\.0/),
      expect.stringMatching(/^sites\.1\.timezone: "Mars\/Olympus" is not an IANA time zone/),
      'sites: exactly one site must have default: true (0 have)',
    ]));
    expect(problems([{ handle: 'a', language: 'en', default: true }, { handle: 'b', language: 'de', default: true }])).toContain('sites: exactly one site must have default: true (2 have)');
  });

  it('takes a valid list', () => {
    const config = load([{ handle: 'default', language: 'en-US', default: true }, { handle: 'ar', language: 'ar', baseUrl: 'https://example.test/ar' }]);
    expect(config.sites[1]).toEqual({ handle: 'ar', language: 'ar', baseUrl: 'https://example.test/ar', timezone: null, default: false });
  });
});
