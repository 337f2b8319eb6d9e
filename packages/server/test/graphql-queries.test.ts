/**
 * GraphQL queries (interface.md §2, §4.8; contract §11): `svc { forms form }` with every argument,
 * every field of the form, page, row and field types checked against the example definitions, the
 * helper and deprecated interfaces, the headless manifest adapter and the HTTP entry points.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { LightMyRequestResponse } from 'fastify';
import { FIELD_TYPES, INTERFACE_FIELD_PROPERTIES, wireFieldType, type FieldType, type Form } from '@svc/core';
import { createTestApp, EXAMPLE_FORMS_DIR, type TestApp } from './support/test-app.js';
import { postGraphql } from './support/graphql-client.js';

// ---------------------------------------------------------------------------------------------
// Request helpers

const post = postGraphql;

/** The data of a query that must succeed. */
async function data<T>(svc: TestApp, query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}): Promise<T> {
  const { res, body } = await post<T>(svc, query, variables, headers);
  expect(body.errors).toBeUndefined();
  expect(res.statusCode).toBe(200);
  if (body.data === undefined || body.data === null) throw new Error('no data');
  return body.data;
}

function setCookies(res: LightMyRequestResponse): string[] {
  const raw = res.headers['set-cookie'];
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw : [String(raw)];
}

// ---------------------------------------------------------------------------------------------
// The example definitions, as written

interface YamlField {
  readonly type: string;
  readonly handle?: string;
  readonly label?: string;
  readonly required?: boolean;
  readonly instructions?: string;
  readonly inputAttributes?: Record<string, string>;
  readonly labelAttributes?: Record<string, string>;
  readonly errorAttributes?: Record<string, string>;
  readonly instructionAttributes?: Record<string, string>;
  readonly rules?: unknown;
  readonly [key: string]: unknown;
}

interface YamlPage {
  readonly label: string;
  readonly rows: readonly (readonly YamlField[])[];
}

interface YamlForm {
  readonly name: string;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly pages: readonly YamlPage[];
}

interface RawYamlForm {
  readonly name: string;
  readonly settings?: Record<string, unknown>;
  readonly fields?: YamlField[];
  readonly pages?: { label: string; rows: (YamlField[] | { fields: YamlField[] })[] }[];
}

function readYamlForm(file: string): YamlForm {
  const raw = parse(readFileSync(join(EXAMPLE_FORMS_DIR, file), 'utf8')) as RawYamlForm;
  const pages: YamlPage[] = raw.pages
    ? raw.pages.map((page) => ({ label: page.label, rows: page.rows.map((row) => (Array.isArray(row) ? row : row.fields)) }))
    : [{ label: 'Page 1', rows: (raw.fields ?? []).map((field) => [field]) }];
  return { name: raw.name, settings: raw.settings ?? {}, pages };
}

const YAML: Readonly<Record<string, YamlForm>> = {
  contact: readYamlForm('contact.yaml'),
  application: readYamlForm('application.yaml'),
  'kitchen-sink': readYamlForm('kitchen-sink.yaml'),
};

function yamlFields(handle: string): YamlField[] {
  return (YAML[handle]?.pages ?? []).flatMap((page) => page.rows.flat());
}

function yamlField(formHandle: string, fieldHandle: string): YamlField {
  const field = yamlFields(formHandle).find((f) => f.handle === fieldHandle);
  if (!field) throw new Error(`${formHandle}.yaml has no field ${fieldHandle}`);
  return field;
}

/** `a` or `{value, label, checked}` as GraphQL serves an option. */
function optionsOf(field: YamlField) {
  const options = (field.options ?? []) as readonly (string | { value: string; label: string; checked?: boolean })[];
  return options.map((o) => (typeof o === 'string' ? { value: o, label: o, checked: false } : { value: o.value, label: o.label, checked: o.checked ?? false }));
}

function scalesOf(field: YamlField) {
  const scales = (field.scales ?? []) as readonly (string | number | { value: string; label: string })[];
  return scales.map((s) => (typeof s === 'object' ? { value: s.value, label: s.label } : { value: String(s), label: String(s) }));
}

function attributeList(map: Record<string, string> | undefined) {
  return Object.entries(map ?? {}).map(([attribute, value]) => ({ attribute, value }));
}

const typeName = (type: string) => `SvcField_${type.charAt(0).toUpperCase()}${type.slice(1)}`;

// ---------------------------------------------------------------------------------------------

const FORM_FIELDS = `id uid name handle hash color description returnUrl storeData submissionTitleFormat submissionMutationName
  extraPostUrl extraPostTriggerPhrase ipCollectingEnabled ajax ajaxEnabled showSpinner showLoadingText loadingText defaultStatus
  formTemplate gtmEnabled gtmId gtmEventName honeypot { name value } csrfToken { name value } captcha { name handle enabled }
  mailingListName successMessage errorMessage disableSubmit disableReset enctype`;

interface FormResult {
  readonly [key: string]: unknown;
  readonly id: number;
  readonly handle: string;
  readonly honeypot: { name: string; value: string } | null;
  readonly csrfToken: { name: string; value: string } | null;
}

const BASE_FIELDS = `__typename id type label hash handle instruction required pageIndex
  inputAttributes { attribute value } labelAttributes { attribute value } errorAttributes { attribute value }
  instructionAttributes { attribute value } rules`;

interface FieldResult {
  readonly [key: string]: unknown;
  readonly __typename: string;
  readonly id: number;
  readonly type: string;
  readonly hash: string;
  readonly handle: string | null;
  readonly pageIndex: number;
  readonly rules: string | null;
}

describe('GraphQL queries', () => {
  let svc: TestApp;
  /** Introspection on and custom status ids, for the schema-level checks. */
  let open: TestApp;

  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false } } });
    open = await createTestApp({
      config: {
        forms: { watch: false },
        graphql: { introspection: true },
        submissions: { statuses: [{ id: 7, handle: 'open', name: 'Open' }, { id: 9, handle: 'closed', name: 'Closed' }] },
      },
    });
  });
  afterAll(async () => {
    await open?.close();
    await svc?.close();
  });

  const model = (handle: string): Form => {
    const form = svc.context.forms.get(handle);
    if (!form) throw new Error(`no form ${handle}`);
    return form;
  };
  const modelFields = (handle: string) => model(handle).pages.flatMap((p) => p.rows.flatMap((r) => r.fields));
  // The forms a caller without a token may read: those headless.forms exposes (graphql.public null).
  const formsIn = (order: (a: Form, b: Form) => number) =>
    [...svc.context.forms.list()]
      .filter((f) => svc.config.headless.forms[f.handle]?.exposeManifest === true)
      .sort(order)
      .map((f) => f.handle);

  describe('svc { forms } and svc { form } arguments', () => {
    it('lists every form ordered by id ascending when no argument is given', async () => {
      const { svc: root } = await data<{ svc: { forms: { id: number; handle: string }[] } }>(svc, '{ svc { forms { id handle } } }');
      expect(root.forms.map((f) => f.handle)).toEqual(formsIn((a, b) => a.id - b.id));
      expect(root.forms.map((f) => f.handle).sort()).toEqual(['application', 'contact', 'kitchen-sink']);
    });

    const narrowing: { arg: 'id' | 'uid' | 'handle'; handles: string[]; asList: boolean }[] = [
      { arg: 'id', handles: ['contact'], asList: false },
      { arg: 'id', handles: ['contact', 'kitchen-sink'], asList: true },
      { arg: 'uid', handles: ['application'], asList: false },
      { arg: 'uid', handles: ['application', 'contact'], asList: true },
      { arg: 'handle', handles: ['kitchen-sink'], asList: false },
      { arg: 'handle', handles: ['kitchen-sink', 'application'], asList: true },
    ];
    const literal = (arg: 'id' | 'uid' | 'handle', handles: string[], asList: boolean) => {
      const values = handles.map((h) => (arg === 'id' ? String(model(h).id) : JSON.stringify(model(h)[arg])));
      return `${arg}: ${asList ? `[${values.join(', ')}]` : values[0]}`;
    };

    it.each(narrowing)('forms narrows by $arg given as a list: $asList ($handles)', async ({ arg, handles, asList }) => {
      const { svc: root } = await data<{ svc: { forms: { handle: string }[] } }>(svc, `{ svc { forms(${literal(arg, handles, asList)}) { handle } } }`);
      expect(root.forms.map((f) => f.handle).sort()).toEqual([...handles].sort());
    });

    it.each(narrowing)('form picks one form by $arg given as a list: $asList ($handles)', async ({ arg, handles, asList }) => {
      const { svc: root } = await data<{ svc: { form: { handle: string } | null } }>(svc, `{ svc { form(${literal(arg, handles.slice(0, 1), asList)}) { handle } } }`);
      expect(root.form?.handle).toBe(handles[0]);
    });

    it('accepts a single value or a list for a list argument passed as a variable', async () => {
      const query = 'query ($h: [String]) { svc { forms(handle: $h) { handle } } }';
      const single = await data<{ svc: { forms: { handle: string }[] } }>(svc, query, { h: 'contact' });
      const list = await data<{ svc: { forms: { handle: string }[] } }>(svc, query, { h: ['contact', 'application'] });
      expect(single.svc.forms.map((f) => f.handle)).toEqual(['contact']);
      expect(list.svc.forms.map((f) => f.handle).sort()).toEqual(['application', 'contact']);
    });

    it('answers an empty list from forms and null from form when nothing matches', async () => {
      const result = await data<{ svc: { forms: unknown[]; form: unknown } }>(svc, '{ svc { forms(handle: "nope") { id } form(id: 999999) { id } } }');
      expect(result.svc).toEqual({ forms: [], form: null });
    });

    it('combines narrowing arguments: a form must match all of them', async () => {
      const { svc: root } = await data<{ svc: { forms: { handle: string }[] } }>(
        svc,
        `{ svc { forms(handle: ["contact", "application"], id: ${model('contact').id}) { handle } } }`,
      );
      expect(root.forms.map((f) => f.handle)).toEqual(['contact']);
    });

    const byId = () => formsIn((a, b) => a.id - b.id);
    it.each([
      { args: 'limit: 1', expected: () => byId().slice(0, 1) },
      { args: 'limit: 2', expected: () => byId().slice(0, 2) },
      { args: 'limit: 1, offset: 1', expected: () => byId().slice(1, 2) },
      { args: 'offset: 2', expected: () => byId().slice(2) },
      { args: 'offset: 10', expected: () => [] },
      { args: 'limit: 0', expected: () => [] },
    ])('forms($args) pages through the forms in id order', async ({ args, expected }) => {
      const { svc: root } = await data<{ svc: { forms: { handle: string }[] } }>(svc, `{ svc { forms(${args}) { handle } } }`);
      expect(root.forms.map((f) => f.handle)).toEqual(expected());
    });

    it('lets form take offset and orderBy to pick which form comes first', async () => {
      const { svc: root } = await data<{ svc: { a: { handle: string }; b: { handle: string } } }>(
        svc,
        '{ svc { a: form(orderBy: "handle", sort: "desc") { handle } b: form(orderBy: "handle", offset: 1) { handle } } }',
      );
      expect(root.a.handle).toBe('kitchen-sink');
      expect(root.b.handle).toBe('contact');
    });

    const keys: Record<string, (f: Form) => string | number> = {
      id: (f) => f.id,
      uid: (f) => f.uid,
      name: (f) => f.name.toLowerCase(),
      handle: (f) => f.handle,
    };
    const orderings = Object.keys(keys).flatMap((orderBy) => (['asc', 'desc'] as const).map((sort) => ({ orderBy, sort })));
    it.each(orderings)('orders forms by $orderBy $sort', async ({ orderBy, sort }) => {
      const key = keys[orderBy] as (f: Form) => string | number;
      const ascending = formsIn((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      const { svc: root } = await data<{ svc: { forms: { handle: string }[] } }>(svc, `{ svc { forms(orderBy: "${orderBy}", sort: "${sort}") { handle } } }`);
      expect(root.forms.map((f) => f.handle)).toEqual(sort === 'asc' ? ascending : [...ascending].reverse());
    });

    it.each([
      { field: 'forms', args: 'orderBy: "password"' },
      { field: 'forms', args: 'orderBy: "dateCreated"' },
      { field: 'forms', args: 'sort: "sideways"' },
      { field: 'form', args: 'orderBy: "nope"' },
      { field: 'form', args: 'sort: "up"' },
    ])('refuses $field($args) with PAYLOAD_INVALID', async ({ field, args }) => {
      const { res, body } = await post<{ svc: Record<string, unknown> | null }>(svc, `{ svc { ${field}(${args}) { id } } }`);
      expect(res.statusCode).toBe(200);
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]?.extensions?.code).toBe('PAYLOAD_INVALID');
      expect(body.data?.svc?.[field]).toBeNull();
    });
  });

  describe('SvcFormInterface', () => {
    it.each(['contact', 'application', 'kitchen-sink'])('serves every form field of %s as its definition and model say', async (handle) => {
      const { svc: root } = await data<{ svc: { form: FormResult } }>(svc, `{ svc { form(handle: "${handle}") { ${FORM_FIELDS} } } }`);
      const form = root.form;
      const m = model(handle);
      const yaml = YAML[handle] as YamlForm;
      const s = m.settings;
      expect(form).toMatchObject({
        id: m.id,
        uid: m.uid,
        name: yaml.name,
        handle,
        hash: m.hash,
        color: yaml.settings.color ?? null,
        description: yaml.settings.description ?? null,
        returnUrl: s.returnUrl,
        storeData: s.storeData,
        submissionTitleFormat: yaml.settings.submissionTitleFormat ?? s.submissionTitleFormat,
        extraPostUrl: s.extraPostUrl,
        extraPostTriggerPhrase: s.extraPostTriggerPhrase,
        ipCollectingEnabled: s.ipCollectingEnabled,
        ajax: s.ajaxEnabled,
        ajaxEnabled: s.ajaxEnabled,
        showSpinner: s.showSpinner,
        showLoadingText: s.showLoadingText,
        loadingText: s.loadingText,
        defaultStatus: svc.config.submissions.statuses.find((st) => st.handle === s.defaultStatus)?.id,
        formTemplate: s.formTemplate,
        gtmEnabled: s.gtmEnabled,
        gtmId: s.gtmId,
        gtmEventName: s.gtmEventName,
        successMessage: yaml.settings.successMessage ?? s.successMessage,
        errorMessage: s.errorMessage,
        disableSubmit: s.disableSubmit,
        disableReset: s.disableReset,
      });
      expect(typeof form.defaultStatus).toBe('number');
    });

    it.each([
      ['contact', 'save_contact_Submission'],
      ['application', 'save_application_Submission'],
      ['kitchen-sink', 'save_kitchen_sink_Submission'],
    ])("names %s's mutation %s, with '-' turned into '_'", async (handle, name) => {
      const { svc: root } = await data<{ svc: { form: { submissionMutationName: string; captcha: unknown } } }>(
        svc,
        `{ svc { form(handle: "${handle}") { submissionMutationName captcha { name handle enabled } } } }`,
      );
      expect(root.form.submissionMutationName).toBe(name);
      // contact names Turnstile, which stays off (enabled false) until keys are configured.
      expect(root.form.captcha).toEqual({ name, handle: handle === 'contact' ? 'turnstile' : null, enabled: false });
    });

    it('serves defaultStatus as the configured Int id of the default status', async () => {
      const { svc: root } = await data<{ svc: { forms: { defaultStatus: number }[] } }>(open, '{ svc { forms { defaultStatus } } }');
      expect(root.forms.map((f) => f.defaultStatus)).toEqual([7, 7, 7]);
    });

    it('serves a fresh honeypot with the name the manifest uses and an empty value', async () => {
      const { svc: root } = await data<{ svc: { forms: { handle: string; honeypot: { name: string; value: string } }[] } }>(
        svc,
        '{ svc { forms { handle honeypot { name value } } } }',
      );
      for (const form of root.forms) {
        const manifest = await svc.manifest(form.handle);
        expect(form.honeypot).toEqual({ name: manifest.security.honeypot?.name, value: '' });
      }
      expect(new Set(root.forms.map((f) => f.honeypot.name)).size).toBe(root.forms.length);
    });

    it('issues a fresh CSRF token and sets the svc_csrf cookie when the request has none', async () => {
      const query = '{ svc { form(handle: "contact") { csrfToken { name value } } } }';
      const first = await post<{ svc: { form: FormResult } }>(svc, query);
      const second = await post<{ svc: { form: FormResult } }>(svc, query);
      const token = first.body.data?.svc.form.csrfToken;
      expect(token).toEqual({ name: 'SVC_CSRF_TOKEN', value: expect.stringMatching(/\S{20,}/) });
      expect(second.body.data?.svc.form.csrfToken?.value).not.toBe(token?.value);
      const cookies = setCookies(first.res);
      expect(cookies).toHaveLength(1);
      expect(cookies[0]).toMatch(/^svc_csrf=[^;]+;/);
      expect(cookies[0]).toMatch(/HttpOnly/i);
    });

    it('issues a CSRF token bound to the cookie it sets, which a REST submit accepts', async () => {
      const { res, body } = await post<{ svc: { form: FormResult } }>(svc, '{ svc { form(handle: "contact") { csrfToken { name value } } } }');
      const cookie = (setCookies(res)[0] ?? '').split(';')[0] ?? '';
      const submit = await svc.app.inject({
        method: 'POST',
        url: '/svc/api/forms/contact/submit',
        headers: { 'content-type': 'application/json', 'x-csrf-token': body.data?.svc.form.csrfToken?.value ?? '', cookie },
        payload: JSON.stringify({ intent: 'validate', values: { firstName: 'Ann', email: 'ann@example.test' }, meta: await svc.meta('contact') }),
      });
      expect(submit.statusCode).toBe(200);
      expect(submit.json<{ status: string }>().status).toBe('validated');
    });

    it('keeps the caller’s CSRF cookie: no Set-Cookie when a valid one is sent', async () => {
      const { cookie } = await svc.csrf();
      const { res, body } = await post<{ svc: { form: FormResult } }>(svc, '{ svc { form(handle: "contact") { csrfToken { name value } } } }', undefined, { cookie });
      expect(body.data?.svc.form.csrfToken?.name).toBe('SVC_CSRF_TOKEN');
      expect(setCookies(res)).toEqual([]);
    });

    it('does not set a cookie when no CSRF token is selected', async () => {
      const { res } = await post(svc, '{ svc { form(handle: "contact") { handle } } }');
      expect(setCookies(res)).toEqual([]);
    });

    it('names the mailing-list inputs mailingList_<hash> on kitchen-sink and none on contact', async () => {
      const { svc: root } = await data<{ svc: { ks: { mailingListName: string[] }; contact: { mailingListName: string[] } } }>(
        svc,
        '{ svc { ks: form(handle: "kitchen-sink") { mailingListName } contact: form(handle: "contact") { mailingListName } } }',
      );
      const newsletter = model('kitchen-sink').fieldsByHandle.get('newsletter');
      expect(root.ks.mailingListName).toEqual([`mailingList_${newsletter?.hash}`]);
      expect(root.contact.mailingListName).toEqual([]);
    });

    it('serves enctype multipart/form-data for kitchen-sink (it has a file field) and url-encoded otherwise', async () => {
      const { svc: root } = await data<{ svc: { forms: { handle: string; enctype: string }[] } }>(svc, '{ svc { forms { handle enctype } } }');
      expect(Object.fromEntries(root.forms.map((f) => [f.handle, f.enctype]))).toEqual({
        application: 'application/x-www-form-urlencoded',
        contact: 'application/x-www-form-urlencoded',
        'kitchen-sink': 'multipart/form-data',
      });
    });
  });

  describe('fields, pages and rows', () => {
    const fieldArgs: { title: string; args: (f: (h: string) => { id: number; hash: string }) => string; handles: string[] }[] = [
      { title: 'one id', args: (f) => `id: ${f('email').id}`, handles: ['email'] },
      { title: 'a list of ids', args: (f) => `id: [${f('email').id}, ${f('rating').id}]`, handles: ['email', 'rating'] },
      { title: 'one hash', args: (f) => `hash: "${f('table').hash}"`, handles: ['table'] },
      { title: 'a list of hashes', args: (f) => `hash: ["${f('table').hash}", "${f('text').hash}"]`, handles: ['text', 'table'] },
      { title: 'one handle', args: () => 'handle: "phone"', handles: ['phone'] },
      { title: 'a list of handles', args: () => 'handle: ["phone", "select", "nope"]', handles: ['select', 'phone'] },
      { title: 'a handle and a non-matching id', args: (f) => `handle: "phone", id: ${f('email').id}`, handles: [] },
    ];
    it.each(fieldArgs)('fields() narrows by $title', async ({ args, handles }) => {
      const lookup = (h: string) => {
        const field = model('kitchen-sink').fieldsByHandle.get(h);
        if (!field) throw new Error(h);
        return { id: field.id, hash: field.hash };
      };
      const { svc: root } = await data<{ svc: { form: { fields: { handle: string }[] } } }>(
        svc,
        `{ svc { form(handle: "kitchen-sink") { fields(${args(lookup)}) { handle } } } }`,
      );
      expect(root.form.fields.map((f) => f.handle)).toEqual(handles);
    });

    it('lists all fields, submit fields included, in page and row order', async () => {
      const { svc: root } = await data<{ svc: { form: { fields: { id: number; handle: string | null }[] } } }>(
        svc,
        '{ svc { form(handle: "kitchen-sink") { fields { id handle } } } }',
      );
      expect(root.form.fields.map((f) => f.handle)).toEqual(yamlFields('kitchen-sink').map((f) => f.handle ?? null));
      expect(root.form.fields.map((f) => f.id)).toEqual(modelFields('kitchen-sink').map((f) => f.id));
    });

    it.each(['contact', 'application', 'kitchen-sink'])('nests pages → rows → fields of %s as the definition lays them out', async (handle) => {
      const { svc: root } = await data<{
        svc: { form: { pages: { index: number; label: string; rows: { id: string; fields: { type: string; handle: string | null }[] }[] }[] } };
      }>(svc, `{ svc { form(handle: "${handle}") { pages { index label rows { id fields { type handle } } } } } }`);
      const yaml = YAML[handle] as YamlForm;
      expect(root.form.pages).toEqual(
        yaml.pages.map((page, index) => ({
          index,
          label: page.label,
          rows: page.rows.map((row, r) => ({
            id: model(handle).pages[index]?.rows[r]?.id,
            // contract §2: the wire speaks Freeform 5's type names.
            fields: row.map((f) => ({ type: wireFieldType(f as { type: FieldType }), handle: f.handle ?? null })),
          })),
        })),
      );
      const rowIds = root.form.pages.flatMap((p) => p.rows.map((r) => r.id));
      expect(rowIds.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
      expect(new Set(rowIds).size).toBe(rowIds.length);
    });

    it.each(['contact', 'application', 'kitchen-sink'])('serves every SvcFieldInterface field of every field of %s', async (handle) => {
      const { svc: root } = await data<{ svc: { form: { fields: FieldResult[] } } }>(svc, `{ svc { form(handle: "${handle}") { fields { ${BASE_FIELDS} } } } }`);
      const yaml = YAML[handle] as YamlForm;
      const expected = yaml.pages.flatMap((page, pageIndex) =>
        page.rows.flat().map((f) => ({
          __typename: typeName(f.type),
          type: wireFieldType(f as { type: FieldType }),
          label: f.label ?? (f.type === 'submit' ? 'Submit' : undefined),
          handle: f.handle ?? null,
          instruction: f.instructions ?? null,
          required: f.required ?? false,
          pageIndex,
          inputAttributes: attributeList(f.inputAttributes),
          labelAttributes: attributeList(f.labelAttributes),
          errorAttributes: attributeList(f.errorAttributes),
          instructionAttributes: attributeList(f.instructionAttributes),
          rules: f.rules ?? null,
        })),
      );
      const served = root.form.fields.map(({ id: _id, hash: _hash, rules, ...rest }) => ({ ...rest, rules: rules === null ? null : (JSON.parse(rules) as unknown) }));
      expect(served).toEqual(expected);
      expect(root.form.fields.map((f) => [f.id, f.hash])).toEqual(modelFields(handle).map((f) => [f.id, f.hash]));
    });

    it('serves rules as a JSON string, not an object, and null for a field without rules', async () => {
      const { svc: root } = await data<{ svc: { form: { fields: { handle: string; rules: string | null }[] } } }>(
        svc,
        '{ svc { form(handle: "application") { fields(handle: ["heardFromOther", "heardFrom"]) { handle rules } } } }',
      );
      const [heardFrom, other] = root.form.fields;
      expect(heardFrom?.rules).toBeNull();
      expect(typeof other?.rules).toBe('string');
      expect(JSON.parse(other?.rules ?? 'null')).toEqual({ show: true, type: 'all', criteria: [{ tgt: 'heardFrom', o: '=', val: 'other' }] });
    });
  });

  describe('field type fragments', () => {
    /** interface.md §2.6, per type (plus `hidden`, which carries its value): the one table @svc/core keeps. */
    const SPECIFIC: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
      FIELD_TYPES.map((type) => [typeName(type), INTERFACE_FIELD_PROPERTIES[type]]),
    );
    const SUBSELECTIONS: Readonly<Record<string, string>> = { options: '{ value label checked }', scales: '{ value label }' };
    // A type without §2.6 properties (payment) has no fragment to ask for: `{ }` is not GraphQL.
    const fragments = Object.entries(SPECIFIC)
      .filter(([, keys]) => keys.length > 0)
      .map(([type, keys]) => `... on ${type} { ${keys.map((k) => `${k} ${SUBSELECTIONS[k] ?? ''}`).join(' ')} }`)
      .join('\n');

    let fields: FieldResult[];
    let rawBody: string;
    beforeAll(async () => {
      const { res, body } = await post<{ svc: { form: { fields: FieldResult[] } } }>(
        svc,
        `{ svc { form(handle: "kitchen-sink") { fields { __typename hash handle pageIndex ${fragments} } } } }`,
      );
      expect(body.errors).toBeUndefined();
      fields = body.data?.svc.form.fields ?? [];
      rawBody = res.body;
    });

    it('kitchen-sink has a field of every type, and every type has its SvcField_<Type> object', () => {
      // A payment field would make kitchen-sink a paid form; `donation` carries that type.
      expect(new Set(fields.map((f) => f.__typename))).toEqual(new Set(FIELD_TYPES.filter((t) => t !== 'payment').map(typeName)));
      expect(Object.keys(SPECIFIC).sort()).toEqual(FIELD_TYPES.map(typeName).sort());
    });

    /** What GraphQL serves for a key the definition sets, where it is not the value as written. */
    const transforms: Readonly<Record<string, (f: YamlField) => unknown>> = {
      options: optionsOf,
      scales: scalesOf,
      // "Boolean (as typed in the interface)": whether a label is set.
      addButtonLabel: (f) => typeof f.addButtonLabel === 'string' && f.addButtonLabel.length > 0,
    };
    const cases = yamlFields('kitchen-sink').map((f, index) => ({ type: typeName(f.type), handle: f.handle ?? `(submit #${index})`, index }));

    it.each(cases)('$type $handle serves its type-specific fields as kitchen-sink.yaml sets them', ({ type, index }) => {
      const yaml = yamlFields('kitchen-sink')[index] as YamlField;
      const served = fields[index] as FieldResult;
      expect(served.__typename).toBe(type);
      const keys = SPECIFIC[type] ?? [];
      const expected: Record<string, unknown> = {};
      for (const key of keys) {
        const transform = transforms[key];
        expected[key] = transform ? transform(yaml) : (yaml[key] ?? null);
      }
      if (type === 'SvcField_Confirmation') expected.targetFieldHash = fields.find((f) => f.handle === yaml.target)?.hash;
      if (type === 'SvcField_Table') expected.tableLayout = yaml.columns;
      const actual: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, served[k]]));
      if (type === 'SvcField_Table') actual.tableLayout = JSON.parse(String(served.tableLayout)) as unknown;
      expect(actual).toEqual(expected);
      expect(Object.keys(served).sort()).toEqual(['__typename', 'hash', 'handle', 'pageIndex', ...keys].sort());
    });

    it("serves the confirmation's target as the email field's hash", () => {
      const email = fields.find((f) => f.handle === 'email');
      const confirm = fields.find((f) => f.handle === 'emailConfirm');
      expect(email?.hash).toEqual(expect.any(String));
      expect(confirm?.targetFieldHash).toBe(email?.hash);
      expect(email?.hash).toBe(model('kitchen-sink').fieldsByHandle.get('email')?.hash);
    });

    it('serves the table layout as a JSON string of the columns', () => {
      const table = fields.find((f) => f.handle === 'table');
      expect(typeof table?.tableLayout).toBe('string');
      expect(JSON.parse(String(table?.tableLayout))).toEqual([
        { label: 'Name', type: 'string', required: true },
        { label: 'Quantity', type: 'number', value: '1' },
        { label: 'Size', type: 'select', options: ['S', 'M', 'L'] },
      ]);
    });

    it('never serves dynamic recipients’ addresses', () => {
      const department = fields.find((f) => f.handle === 'department');
      expect(department?.options).toEqual([
        { value: 'sales', label: 'Sales', checked: false },
        { value: 'support', label: 'Support', checked: false },
      ]);
      for (const address of ['sales@example.test', 'support@example.test', 'oncall@example.test']) expect(rawBody).not.toContain(address);
      expect(rawBody).not.toContain('recipients');
    });

    it('serves opinion scales as strings, numbers included, with their labels', () => {
      const scale = fields.find((f) => f.handle === 'opinionScale');
      expect(scale?.scales).toEqual([
        { value: '1', label: '1' },
        { value: '2', label: '2' },
        { value: '3', label: '3' },
        { value: '4', label: 'Four' },
        { value: '5', label: 'Five' },
      ]);
      expect(scale?.legends).toEqual(['Unlikely', 'Very likely']);
    });

    it('serves the number properties with their GraphQL types', () => {
      const number = fields.find((f) => f.handle === 'number');
      expect(number).toMatchObject({
        value: '10',
        minLength: 1,
        minValue: 0,
        maxValue: 1000,
        decimalCount: 2,
        decimalSeparator: '.',
        thousandsSeparator: ',',
        allowNegative: false,
        placeholder: '0.00',
      });
      expect(fields.find((f) => f.handle === 'signature')?.penDotSize).toBe(2.5);
    });
  });

  describe('helper interfaces', () => {
    it('serves options, scales and attributes as the Svc helper objects', async () => {
      const { svc: root } = await data<{ svc: { form: { fields: Record<string, unknown>[] } } }>(
        svc,
        `{ svc { form(handle: "kitchen-sink") { fields(handle: ["select", "opinionScale", "text"]) {
            handle
            inputAttributes { __typename ... on SvcAttributeInterface { attribute value } }
            ... on SvcField_Select { options { __typename ... on SvcOptionInterface { value label checked } } }
            ... on SvcField_OpinionScale { scales { __typename ... on SvcOpinionScaleInterface { value label } } }
        } } } }`,
      );
      const [text, select, scale] = root.form.fields;
      expect(text?.inputAttributes).toEqual([{ __typename: 'SvcAttribute', attribute: 'autocomplete', value: 'off' }]);
      expect(select?.options).toEqual(optionsOf(yamlField('kitchen-sink', 'select')).map((o) => ({ __typename: 'SvcOption', ...o })));
      expect(scale?.scales).toEqual(scalesOf(yamlField('kitchen-sink', 'opinionScale')).map((s) => ({ __typename: 'SvcOpinionScale', ...s })));
    });

    it.each([
      { name: 'SvcOptionInterface', fields: ['checked', 'label', 'value'], object: 'SvcOption' },
      { name: 'SvcOpinionScaleInterface', fields: ['label', 'value'], object: 'SvcOpinionScale' },
      { name: 'SvcAttributeInterface', fields: ['attribute', 'value'], object: 'SvcAttribute' },
      { name: 'SvcCsrfTokenInterface', fields: ['name', 'value'], object: 'SvcCsrfToken' },
      { name: 'SvcFormCaptchaInterface', fields: ['enabled', 'handle', 'name'], object: 'SvcFormCaptcha' },
      { name: 'SvcSubmissionCaptchaInterface', fields: ['name', 'value'], object: 'SvcSubmissionCaptcha' },
    ])('$name is an interface with exactly its fields, implemented by $object', async ({ name, fields, object }) => {
      const result = await data<{ __type: { kind: string; fields: { name: string }[]; possibleTypes: { name: string }[] } }>(
        open,
        `{ __type(name: "${name}") { kind fields(includeDeprecated: true) { name } possibleTypes { name } } }`,
      );
      expect(result.__type.kind).toBe('INTERFACE');
      expect(result.__type.fields.map((f) => f.name).sort()).toEqual(fields);
      expect(result.__type.possibleTypes.map((t) => t.name)).toEqual([object]);
    });
  });

  describe('deprecations', () => {
    interface IntrospectedField {
      readonly name: string;
      readonly isDeprecated: boolean;
      readonly deprecationReason: string | null;
    }
    const fieldsOf = async (type: string) => {
      const result = await data<{ __type: { fields: IntrospectedField[] } | null }>(
        open,
        `{ __type(name: "${type}") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`,
      );
      return result.__type?.fields ?? [];
    };

    it.each([
      { type: 'SvcFormInterface', field: 'ajax', replacement: 'ajaxEnabled' },
      { type: 'SvcForm', field: 'ajax', replacement: 'ajaxEnabled' },
      { type: 'SvcHoneypotInterface', field: 'hash', replacement: 'name' },
      { type: 'SvcHoneypotInterface', field: 'timestamp', replacement: 'name' },
      { type: 'SvcSubmissionInterface', field: 'freeformPayload', replacement: 'svcPayload' },
      { type: 'contact_Submission', field: 'freeformPayload', replacement: 'svcPayload' },
    ])('marks $type.$field deprecated in favour of $replacement', async ({ type, field, replacement }) => {
      const fields = await fieldsOf(type);
      const deprecated = fields.find((f) => f.name === field);
      expect(deprecated?.isDeprecated).toBe(true);
      expect(deprecated?.deprecationReason).toContain(replacement);
      expect(fields.find((f) => f.name === replacement)?.isDeprecated).toBe(false);
    });

    it('hides deprecated fields from a plain field listing and keeps the rest undeprecated', async () => {
      const result = await data<{ __type: { fields: IntrospectedField[] } }>(open, '{ __type(name: "SvcFormInterface") { fields { name isDeprecated } } }');
      const names = result.__type.fields.map((f) => f.name);
      expect(names).not.toContain('ajax');
      expect(names).toContain('ajaxEnabled');
      expect(result.__type.fields.every((f) => !f.isDeprecated)).toBe(true);
    });

    it.each([
      ['FormInterface', 'SvcFormInterface'],
      ['FieldInterface', 'SvcFieldInterface'],
      ['PageInterface', 'SvcPageInterface'],
      ['RowInterface', 'SvcRowInterface'],
      ['OptionsInterface', 'SvcOptionInterface'],
      ['ScalesInterface', 'SvcOpinionScaleInterface'],
      ['KeyValueMapInterface', 'SvcAttributeInterface'],
    ])('keeps the old interface %s, described as deprecated in favour of %s, with the same fields and objects', async (oldName, newName) => {
      type Introspected = { kind: string; description: string | null; fields: { name: string }[]; possibleTypes: { name: string }[] };
      const result = await data<{ old: Introspected; current: Introspected }>(
        open,
        `{ old: __type(name: "${oldName}") { kind description fields(includeDeprecated: true) { name } possibleTypes { name } }
           current: __type(name: "${newName}") { kind description fields(includeDeprecated: true) { name } possibleTypes { name } } }`,
      );
      expect(result.old.kind).toBe('INTERFACE');
      expect(result.old.description?.startsWith(`Deprecated: use ${newName}`)).toBe(true);
      expect(result.old.fields.map((f) => f.name)).toEqual(result.current.fields.map((f) => f.name));
      expect(result.old.possibleTypes.map((t) => t.name).sort()).toEqual(result.current.possibleTypes.map((t) => t.name).sort());
      expect(result.current.description ?? '').not.toMatch(/^Deprecated/);
    });

    it('still answers queries written against the old FormInterface and FieldInterface names', async () => {
      const { svc: root } = await data<{ svc: { form: { handle: string; fields: { label: string }[] } } }>(
        svc,
        '{ svc { form(handle: "contact") { ... on FormInterface { handle } fields { ... on FieldInterface { label } } } } }',
      );
      expect(root.form.handle).toBe('contact');
      expect(root.form.fields.map((f) => f.label)).toEqual(yamlFields('contact').map((f) => f.label ?? 'Submit'));
    });

    it('still answers old PageInterface, RowInterface, OptionsInterface, ScalesInterface and KeyValueMapInterface fragments', async () => {
      const { svc: root } = await data<{ svc: { form: { pages: { label: string; rows: { id: string; fields: Record<string, unknown>[] }[] }[] } } }>(
        svc,
        `{ svc { form(handle: "kitchen-sink") { pages { ... on PageInterface { label rows { ... on RowInterface { id fields {
            handle inputAttributes { ... on KeyValueMapInterface { attribute value } }
            ... on SvcField_Select { options { ... on OptionsInterface { value } } }
            ... on SvcField_OpinionScale { scales { ... on ScalesInterface { label } } }
        } } } } } } } }`,
      );
      expect(root.form.pages.map((p) => p.label)).toEqual(['Text and choices', 'Special inputs']);
      const all = root.form.pages.flatMap((p) => p.rows.flatMap((r) => r.fields));
      expect(all.find((f) => f.handle === 'text')?.inputAttributes).toEqual([{ attribute: 'autocomplete', value: 'off' }]);
      expect(all.find((f) => f.handle === 'select')?.options).toEqual([{ value: 'a' }, { value: 'b' }, { value: 'c' }]);
      expect(all.find((f) => f.handle === 'opinionScale')?.scales).toEqual(['1', '2', '3', 'Four', 'Five'].map((label) => ({ label })));
    });
  });

  describe('headless adapter and HTTP entry points', () => {
    it.each(['contact', 'application', 'kitchen-sink'])('svcHeadlessManifest(handle: "%s") equals the REST manifest data', async (handle) => {
      const result = await data<{ svcHeadlessManifest: Record<string, unknown> }>(svc, `{ svcHeadlessManifest(handle: "${handle}") }`);
      const rest = await svc.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/manifest` });
      const restData = rest.json<{ data: Record<string, unknown> }>().data;
      expect(result.svcHeadlessManifest.generatedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
      expect({ ...result.svcHeadlessManifest, generatedAt: null }).toEqual({ ...restData, generatedAt: null });
    });

    it('answers svcHeadlessManifest for an unknown handle with FORM_NOT_FOUND', async () => {
      const { body } = await post<{ svcHeadlessManifest: unknown }>(svc, '{ svcHeadlessManifest(handle: "nope") }');
      expect(body.data?.svcHeadlessManifest ?? null).toBeNull();
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['FORM_NOT_FOUND']);
    });

    const QUERY = '{ svc { forms(orderBy: "handle") { handle name submissionMutationName } } }';

    it('answers a query sent with GET ?query= like the same query POSTed', async () => {
      const posted = await post(svc, QUERY);
      const got = await svc.app.inject({ method: 'GET', url: `/graphql?query=${encodeURIComponent(QUERY)}` });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toMatch(/^application\/(graphql-response\+)?json/);
      expect(got.json()).toEqual(posted.body);
      expect(posted.body.errors).toBeUndefined();
    });

    it('answers GET variables given as JSON in ?variables=', async () => {
      const query = 'query ($h: [String]) { svc { forms(handle: $h) { handle } } }';
      const got = await svc.app.inject({
        method: 'GET',
        url: `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(JSON.stringify({ h: 'contact' }))}`,
      });
      expect(got.statusCode).toBe(200);
      expect(got.json()).toEqual({ data: { svc: { forms: [{ handle: 'contact' }] } } });
    });

    it('answers the alias /actions/graphql/api like /graphql, for POST and GET', async () => {
      const posted = await post(svc, QUERY);
      const aliasPost = await post(svc, QUERY, undefined, {}, '/actions/graphql/api');
      const aliasGet = await svc.app.inject({ method: 'GET', url: `/actions/graphql/api?query=${encodeURIComponent(QUERY)}` });
      expect(aliasPost.res.statusCode).toBe(200);
      expect(aliasPost.body).toEqual(posted.body);
      expect(aliasGet.statusCode).toBe(200);
      expect(aliasGet.json()).toEqual(posted.body);
    });
  });
});
