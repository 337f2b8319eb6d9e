import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FIELD_TYPES, RULE_OPERATORS, type FieldDefinition } from '@svc/core';
import {
  DEFAULT_FORM_SETTINGS,
  FormDefinitionError,
  formatDefinitionProblems,
  loadFormDefinitions,
  type DefinitionLoadResult,
  type DefinitionProblem,
} from './definition-loader.js';

const EXAMPLES_DIR = new URL('../../../../examples/forms/', import.meta.url);
const SCHEMA_FILE = new URL('../../../../schema/form-definition.schema.json', import.meta.url);

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function load(files: Readonly<Record<string, string>>): Promise<DefinitionLoadResult & { dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-forms-'));
  dirs.push(dir);
  await Promise.all(Object.entries(files).map(([name, text]) => writeFile(join(dir, name), text)));
  return { dir, ...(await loadFormDefinitions(dir)) };
}

/** A one-file form whose only field list is `fieldsYaml` (indented as items of `fields:`). */
function form(fieldsYaml: string, extra = ''): string {
  return `name: Test\n${extra}fields:\n${fieldsYaml}`;
}

function paths(problems: readonly DefinitionProblem[]): string[] {
  return problems.map((problem) => problem.path);
}

const TEXT_A = '  - { type: text, handle: a, label: A }\n';

describe('loadFormDefinitions', () => {
  it('loads a YAML form with pages, array rows and object rows', async () => {
    const result = await load({
      'contact.yaml': [
        'handle: contact-us',
        'uid: 3f0c6a3e-0d6b-4e7a-9f3e-2f1e5d7c9b10',
        'name: Contact',
        'pages:',
        '  - label: About you',
        '    rows:',
        '      - [ {type: text, handle: firstName, label: First name, required: true}, {type: text, handle: lastName, label: Last name} ]',
        '      - fields: [ {type: email, handle: email, label: Email} ]',
      ].join('\n'),
    });
    expect(result.problems).toEqual([]);
    const [loaded] = result.definitions;
    expect(loaded?.file).toBe(join(result.dir, 'contact.yaml'));
    const definition = loaded?.definition;
    expect(definition).toMatchObject({ handle: 'contact-us', uid: '3f0c6a3e-0d6b-4e7a-9f3e-2f1e5d7c9b10', name: 'Contact' });
    expect(definition?.pages[0]?.label).toBe('About you');
    expect(definition?.pages[0]?.rows.map((row) => row.map((field) => field.handle))).toEqual([
      ['firstName', 'lastName'],
      ['email'],
    ]);
    expect(definition?.pages[0]?.rows[0]?.[0]).toEqual({
      type: 'text',
      handle: 'firstName',
      label: 'First name',
      required: true,
      rules: null,
    });
  });

  it('loads a JSON form and takes the handle from the file name', async () => {
    const result = await load({
      'feedback.json': JSON.stringify({
        $schema: '../schema/form-definition.schema.json',
        name: 'Feedback',
        fields: [{ type: 'textarea', handle: 'body', label: 'Body', rows: 3, rules: null }],
      }),
    });
    expect(result.problems).toEqual([]);
    expect(result.definitions[0]?.definition.handle).toBe('feedback');
    expect(result.definitions[0]?.definition.pages[0]?.rows).toEqual([
      [{ type: 'textarea', handle: 'body', label: 'Body', rows: 3, rules: null }],
    ]);
  });

  it('expands the fields shortcut, option and scale shorthands, recipients and submit defaults', async () => {
    const result = await load({
      'f.yaml': form(
        [
          '  - { type: select, handle: s, label: S, value: 2, options: [a, { value: 2, label: Two, checked: true }] }',
          '  - type: dynamicRecipients',
          '    handle: d',
          '    label: D',
          '    options: [ { value: x, recipients: x@example.test }, { value: y, label: Y, recipients: [y@example.test, z@example.test] } ]',
          '  - { type: opinionScale, handle: o, label: O, scales: [1, { value: "2", label: Two }] }',
          '  - { type: table, handle: t, label: T, columns: [ { label: Size, type: select, options: [1, M] } ] }',
          '  - { type: submit }',
          '',
        ].join('\n'),
      ),
    });
    expect(result.problems).toEqual([]);
    const page = result.definitions[0]?.definition.pages[0];
    expect(page?.label).toBe('Page 1');
    expect(page?.rules).toBeNull();
    const fields = page?.rows.map((row) => {
      expect(row).toHaveLength(1);
      return row[0] as FieldDefinition;
    });
    expect(fields?.[0]).toMatchObject({
      value: '2',
      options: [
        { value: 'a', label: 'a', checked: false },
        { value: '2', label: 'Two', checked: true },
      ],
    });
    expect(fields?.[1]).toMatchObject({
      options: [
        { value: 'x', label: 'x', checked: false, recipients: ['x@example.test'] },
        { value: 'y', label: 'Y', checked: false, recipients: ['y@example.test', 'z@example.test'] },
      ],
    });
    expect(fields?.[2]).toMatchObject({ scales: [{ value: '1', label: '1' }, { value: '2', label: 'Two' }] });
    expect(fields?.[3]).toMatchObject({ columns: [{ label: 'Size', type: 'select', options: ['1', 'M'] }] });
    expect(fields?.[4]).toEqual({ type: 'submit', handle: null, label: 'Submit', rules: null });
  });

  it('fills every setting default and merges partial spam and captcha settings', async () => {
    const result = await load({
      'bare.yaml': form(TEXT_A),
      'partial.yaml': form(TEXT_A, 'settings:\n  storeData: false\n  spam: { javascriptTest: true }\n  captcha: { enabled: true }\n'),
    });
    expect(result.problems).toEqual([]);
    const [bare, partial] = result.definitions.map((loaded) => loaded.definition);
    expect(bare?.settings).toEqual(DEFAULT_FORM_SETTINGS);
    expect(bare?.settings).toMatchObject({ storeData: true, defaultStatus: 'open', successBehavior: 'message' });
    expect(partial?.settings).toEqual({
      ...DEFAULT_FORM_SETTINGS,
      storeData: false,
      spam: { ...DEFAULT_FORM_SETTINGS.spam, javascriptTest: true },
      captcha: { enabled: true, provider: null },
    });
    expect(bare?.uid).toBeUndefined();
    expect(Object.keys(bare?.pages[0]?.rows[0]?.[0] ?? {})).toEqual(['type', 'handle', 'label', 'rules']);
  });

  const failing: readonly (readonly [string, string, string, string])[] = [
    ['duplicate field handles', form(TEXT_A + TEXT_A), 'fields[1].handle', 'duplicate field handle "a"'],
    ['a blocked IP that is not an IP', form(TEXT_A, 'settings:\n  spam: { blockedIps: ["10.0.0.0/8", "nope", "10.1.2.3/40"] }\n'), 'settings.spam.blockedIps[1]', 'not an IP address'],
    ['a rule target that does not exist', form(TEXT_A + '  - { type: text, handle: b, label: B, rules: { show: true, type: all, criteria: [ { tgt: nope, o: "=", val: x } ] } }\n'), 'fields[1].rules.criteria[0].tgt', 'no input field "nope"'],
    ['a rule that targets its own field', form('  - { type: text, handle: a, label: A, rules: { show: false, type: any, criteria: [ { tgt: a, o: isEmpty } ] } }\n'), 'fields[0].rules.criteria[0].tgt', 'itself'],
    ['a list operator without a list', form(TEXT_A + '  - { type: text, handle: b, label: B, rules: { show: true, type: all, criteria: [ { tgt: a, o: isOneOf, val: x } ] } }\n'), 'fields[1].rules.criteria[0].val', 'must be a list'],
    ['a page rule target that does not exist', 'name: T\npages:\n  - rows: [[ {type: text, handle: a, label: A} ]]\n  - rules: { show: true, type: all, criteria: [ { tgt: b, o: "=", val: x } ] }\n    rows: [[ {type: text, handle: c, label: C} ]]\n', 'pages[1].rules.criteria[0].tgt', 'no input field "b"'],
    ['a confirmation of a missing field', form('  - { type: confirmation, handle: c, label: C, target: email }\n'), 'fields[0].target', 'no input field "email"'],
    ['a confirmation of itself', form('  - { type: confirmation, handle: c, label: C, target: c }\n'), 'fields[0].target', 'cannot confirm itself'],
    ['a regex that does not compile with the u flag', form('  - { type: regex, handle: r, label: R, pattern: "^\\\\a$" }\n'), 'fields[0].pattern', 'not a valid regular expression'],
    ['an empty phone pattern', form('  - { type: phone, handle: p, label: P, pattern: "" }\n'), 'fields[0].pattern', 'must not be empty'],
    ['a choice field without options', form('  - { type: radioGroup, handle: r, label: R, options: [] }\n'), 'fields[0].options', 'must not be empty'],
    ['duplicate option values', form('  - { type: select, handle: s, label: S, options: [a, { value: a, label: A again }] }\n'), 'fields[0].options[1]', 'duplicate value "a"'],
    ['a default value that is not an option', form('  - { type: radioGroup, handle: r, label: R, value: c, options: [a, b] }\n'), 'fields[0].value', '"c" is not one of the option values'],
    ['default values that are not options', form('  - { type: checkboxGroup, handle: c, label: C, values: [a, z], options: [a, b] }\n'), 'fields[0].values[1]', '"z" is not one of'],
    ['minValue above maxValue', form('  - { type: number, handle: n, label: N, minValue: 10, maxValue: 5 }\n'), 'fields[0].maxValue', 'must not be less than minValue (10)'],
    ['an impossible date', form('  - { type: datetime, handle: d, label: D, minDate: "2025-02-30" }\n'), 'fields[0].minDate', 'must match format "date"'],
    ['minDate after maxDate', form('  - { type: datetime, handle: d, label: D, minDate: "2025-06-01", maxDate: "2025-01-01" }\n'), 'fields[0].maxDate', 'must not be before minDate'],
    ['a rating above 100', form('  - { type: rating, handle: r, label: R, maxValue: 101 }\n'), 'fields[0].maxValue', 'must be <= 100'],
    ['a rating of 0', form('  - { type: rating, handle: r, label: R, maxValue: 0 }\n'), 'fields[0].maxValue', 'must be >= 1'],
    ['a file count of 0', form('  - { type: file, handle: f, label: F, fileCount: 0 }\n'), 'fields[0].fileCount', 'must be >= 1'],
    ['a max file size of 0', form('  - { type: file, handle: f, label: F, maxFileSizeKB: 0 }\n'), 'fields[0].maxFileSizeKB', 'must be >= 1'],
    ['redirect without returnUrl', form(TEXT_A, 'settings: { successBehavior: redirect }\n'), 'settings.successBehavior', 'returnUrl'],
    ['an unknown spam behaviour', form(TEXT_A, 'settings: { spam: { behavior: block } }\n'), 'settings.spam.behavior', 'must be one of: simulate_success, display_errors'],
    ['no pages', 'name: T\npages: []\n', 'pages', 'must not be empty'],
    ['neither pages nor fields', 'name: T\n', '', 'must have `pages` or `fields`'],
    ['both pages and fields', `name: T\npages: [ { rows: [[ {type: text, handle: b, label: B} ]] } ]\nfields:\n${TEXT_A}`, 'fields', 'not both'],
    ['a page without rows', 'name: T\npages:\n  - { label: P, rows: [] }\n', 'pages[0].rows', 'must not be empty'],
    ['two submit fields on a page', form(TEXT_A + '  - { type: submit }\n  - { type: submit, label: Again }\n'), 'fields[2]', 'at most one submit field'],
    ['a handle on a submit field', form('  - { type: submit, handle: go }\n'), 'fields[0].handle', 'submit fields have no handle'],
    ['a misspelt property', form('  - { type: text, handle: a, label: A, maxLenght: 5 }\n'), 'fields[0].maxLenght', 'unknown property'],
    ['a property of another field type', form('  - { type: text, handle: a, label: A, rows: 5 }\n'), 'fields[0].rows', 'unknown property'],
    ['a field handle that is not an identifier', form('  - { type: text, handle: 1st, label: A }\n'), 'fields[0].handle', 'must match pattern'],
    ['a dynamic recipient without recipients', form('  - { type: dynamicRecipients, handle: d, label: D, options: [ { value: a } ] }\n'), 'fields[0].options[0].recipients', 'is required'],
    ['an unknown field type', form('  - { type: txt, handle: a, label: A }\n'), 'fields[0].type', 'must be one of: text, textarea'],
  ];

  it.each(failing)('reports %s', async (_title, text, path, message) => {
    const result = await load({ 'form.yaml': text });
    const problem = result.problems.find((candidate) => candidate.path === path);
    expect(problem, formatDefinitionProblems(result.problems)).toBeDefined();
    expect(problem?.message).toContain(message);
    expect(problem?.file).toBe(join(result.dir, 'form.yaml'));
    expect(result.definitions).toEqual([]);
  });

  it('accepts a page without a submit field and page rules on fields of other pages', async () => {
    const result = await load({
      'wizard.yaml': [
        'name: Wizard',
        'pages:',
        '  - rows: [[ {type: radioGroup, handle: kind, label: Kind, options: [a, b]} ]]',
        '  - rules: { show: true, type: any, criteria: [ { tgt: kind, o: isOneOf, val: [a] } ] }',
        '    rows: [[ {type: text, handle: more, label: More}, {type: submit, labelPrev: Back} ]]',
      ].join('\n'),
    });
    expect(result.problems).toEqual([]);
    expect(result.definitions[0]?.definition.pages.map((page) => page.label)).toEqual(['Page 1', 'Page 2']);
    expect(result.definitions[0]?.definition.pages[1]?.rules).toEqual({
      show: true,
      type: 'any',
      criteria: [{ tgt: 'kind', o: 'isOneOf', val: ['a'] }],
    });
  });

  it('reports a form handle and a uid used by two files in both files', async () => {
    const uid = '3f0c6a3e-0d6b-4e7a-9f3e-2f1e5d7c9b10';
    const result = await load({
      'contact.json': JSON.stringify({ uid, name: 'A', fields: [{ type: 'text', handle: 'a', label: 'A' }] }),
      'other.yaml': `handle: contact\nuid: ${uid.toUpperCase()}\n${form(TEXT_A)}`,
    });
    const json = join(result.dir, 'contact.json');
    const yaml = join(result.dir, 'other.yaml');
    expect(result.problems.map((problem) => [problem.file, problem.path])).toEqual([
      [json, 'handle'],
      [json, 'uid'],
      [yaml, 'handle'],
      [yaml, 'uid'],
    ]);
    expect(result.problems[0]?.message).toBe(`form handle "contact" (from the file name) is also used by ${yaml}`);
    expect(result.problems[2]?.message).toBe(`form handle "contact" is also used by ${json}`);
    expect(result.problems[2]).toMatchObject({ line: 1, column: 1 });
    expect(result.definitions).toEqual([]);
  });

  it('reports every problem of every file together and keeps the valid files', async () => {
    const result = await load({
      'a.yaml': form('  - { type: text, handle: a, label: A, maxLength: 0 }\n  - { type: text, handle: a, label: B }\n'),
      'b.yml': 'name: B\nsettings: { colour: red }\nfields:\n  - { type: number, handle: n }\n',
      'c.json': '{ "name": "C", ',
      'good.yaml': form(TEXT_A),
      'notes.txt': 'not a form',
    });
    const report = result.problems.map((problem) => `${problem.file.slice(result.dir.length + 1)} ${problem.path}`);
    expect(report).toEqual([
      'a.yaml fields[0].maxLength',
      'b.yml settings.colour',
      'b.yml fields[0].label',
      'c.json ',
    ]);
    expect(result.definitions.map((loaded) => loaded.definition.handle)).toEqual(['good']);
  });

  it('reports duplicate handles after a file has passed the schema, even with other semantic problems', async () => {
    const result = await load({ 'a.yaml': form(TEXT_A + TEXT_A + '  - { type: number, handle: n, label: N, minValue: 2, maxValue: 1 }\n') });
    expect(paths(result.problems)).toEqual(['fields[1].handle', 'fields[2].maxValue']);
  });

  it('gives YAML problems their line and column', async () => {
    const result = await load({
      'lines.yaml': ['name: Lines', 'fields:', '  - type: text', '    handle: a', '    label: A', '    maxLength: 0', ''].join('\n'),
      'broken.yaml': 'name: Broken\nfields:\n  - type: text\n  handle: [\n',
      'dup.yaml': 'name: A\nname: B\n',
    });
    const of = (name: string) => result.problems.filter((problem) => problem.file === join(result.dir, name));
    const [lines] = of('lines.yaml');
    const [broken] = of('broken.yaml');
    const [dup] = of('dup.yaml');
    expect(lines).toMatchObject({ path: 'fields[0].maxLength', message: 'must be >= 1', line: 6, column: 5 });
    expect(broken).toMatchObject({ path: '' });
    expect(broken?.line).toBeGreaterThanOrEqual(3);
    expect(dup).toMatchObject({ path: '', message: 'Map keys must be unique', line: 2, column: 1 });
    expect(formatDefinitionProblems([lines as DefinitionProblem])).toBe(
      `${join(result.dir, 'lines.yaml')}:6:5 fields[0].maxLength: must be >= 1`,
    );
  });

  it('gives JSON problems lines too, for syntax errors and for schema errors', async () => {
    const result = await load({
      'a.json': '{\n  "name": "A",\n  "fields": [\n    { "type": "text", "handle": "a", "label": "A", "maxLength": 0 }\n  ]\n}\n',
      'b.json': '{\n  "name": "B",\n}\n',
    });
    expect(result.problems[0]).toMatchObject({ path: 'fields[0].maxLength', line: 4, column: 52 });
    expect(result.problems[1]).toMatchObject({ path: '', line: 3, column: 1 });
  });

  it('reports a file name that cannot be a handle unless the file sets one', async () => {
    const result = await load({ 'My Form.yaml': form(TEXT_A), 'Named Form.yaml': `handle: named\n${form(TEXT_A)}` });
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ path: 'handle', message: expect.stringContaining('"My Form" is not a valid handle') });
    expect(result.definitions.map((loaded) => loaded.definition.handle)).toEqual(['named']);
  });

  it('throws when the directory cannot be read', async () => {
    await expect(loadFormDefinitions(join(tmpdir(), 'svc-forms-does-not-exist-4b1d'))).rejects.toThrow(
      /Cannot read the forms directory/,
    );
  });

  it('loads the example forms without problems', async () => {
    const result = await loadFormDefinitions(fileURLToPath(EXAMPLES_DIR));
    expect(formatDefinitionProblems(result.problems)).toBe('');
    const byHandle = new Map(result.definitions.map((loaded) => [loaded.definition.handle, loaded.definition]));
    expect([...byHandle.keys()]).toEqual(['application', 'contact', 'donation', 'job-application', 'kitchen-sink']);
    expect(byHandle.get('application')?.pages).toHaveLength(3);
    expect(byHandle.get('contact')?.settings.submissionTitleFormat).toBe('{{ firstName }} {{ lastName }}');
    const sinkTypes = new Set(byHandle.get('kitchen-sink')?.pages.flatMap((page) => page.rows.flat().map((field) => field.type)));
    expect([...sinkTypes].sort()).toEqual(FIELD_TYPES.filter((t) => t !== 'payment').sort());
    expect(byHandle.get('donation')?.pages[0]?.rows.flat().some((field) => field.type === 'payment')).toBe(true);
  });
});

describe('form definition schema', () => {
  it('lists exactly the model field types and rule operators', async () => {
    const schema = JSON.parse(await readFile(SCHEMA_FILE, 'utf8')) as {
      definitions: { fieldType: { enum: string[] }; field: { allOf: unknown[] }; criterion: { properties: { o: { enum: string[] } } } };
    };
    expect(schema.definitions.fieldType.enum).toEqual([...FIELD_TYPES]);
    expect(schema.definitions.field.allOf).toHaveLength(FIELD_TYPES.length);
    expect(schema.definitions.criterion.properties.o.enum).toEqual(['=', '!=', '>', '>=', '<', '<=', ...RULE_OPERATORS]);
  });
});

describe('FormDefinitionError', () => {
  it('carries the problems and a report with one line per problem', () => {
    const problems: DefinitionProblem[] = [
      { file: 'forms/contact.yaml', path: 'pages[0].rows[1][0].maxLength', message: 'must be >= 1', line: 12, column: 5 },
      { file: 'forms/other.json', path: '', message: 'Unexpected end of JSON input' },
    ];
    const error = new FormDefinitionError(problems);
    expect(error.problems).toBe(problems);
    expect(error.message).toBe(
      'Invalid form definitions:\n' +
        'forms/contact.yaml:12:5 pages[0].rows[1][0].maxLength: must be >= 1\n' +
        'forms/other.json: Unexpected end of JSON input',
    );
  });
});
