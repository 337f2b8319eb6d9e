/** SvcFormInterface, SvcPageInterface and SvcRowInterface (interface.md §2.1–§2.3) and their objects. */
import {
  GraphQLBoolean,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
} from 'graphql';
import type { Field, Form, Page, Row } from '@svc/core';
import { CsrfToken, FormCaptcha, Honeypot } from './graphql-helper-types.js';
import { FieldInterface, fieldView } from './graphql-field-types.js';
import { materialize, schemaFields, type View } from './graphql-views.js';
import type { AppContext } from '../http/app-context.js';
import { deprecatedAlias } from './graphql-deprecated-names.js';
import { lazyCsrfToken, mutationName, type SvcGraphqlContext } from './graphql-context.js';

type Resolvers<T> = GraphQLFieldConfigMap<T, SvcGraphqlContext>;

const allFields = (form: Form): Field[] => form.pages.flatMap((p) => p.rows.flatMap((r) => r.fields));

/** Rows and pages are served from views (graphql-views.ts), so their fields need no resolvers. */
function rowFields(): Resolvers<View> {
  return {
    id: { type: GraphQLString, description: 'Unique hash of the row' },
    fields: { type: new GraphQLList(FieldInterface), description: 'Fields of the row' },
  };
}
export const RowInterface = new GraphQLInterfaceType({ name: 'SvcRowInterface', description: 'A row of fields.', fields: rowFields, resolveType: () => 'SvcRow' });
const RowAlias = deprecatedAlias('RowInterface', RowInterface, rowFields, () => 'SvcRow');
const RowObject = new GraphQLObjectType({ name: 'SvcRow', interfaces: [RowInterface, RowAlias], fields: rowFields });

function pageFields(): Resolvers<View> {
  return {
    index: { type: GraphQLInt, description: 'Page index' },
    label: { type: GraphQLString, description: 'Page label' },
    rows: { type: new GraphQLList(RowInterface), description: 'Rows' },
  };
}
export const PageInterface = new GraphQLInterfaceType({ name: 'SvcPageInterface', description: 'A page of a form.', fields: pageFields, resolveType: () => 'SvcPage' });
const PageAlias = deprecatedAlias('PageInterface', PageInterface, pageFields, () => 'SvcPage');
const PageObject = new GraphQLObjectType({ name: 'SvcPage', interfaces: [PageInterface, PageAlias], fields: pageFields });

function rowView(row: Row, form: Form): View {
  return { __typename: 'SvcRow', id: row.id, fields: row.fields.map((field) => fieldView(field, form)) };
}

function pageView(page: Page, form: Form): View {
  return { __typename: 'SvcPage', index: page.index, label: page.label, rows: page.rows.map((row) => rowView(row, form)) };
}

const listArg = (type: typeof GraphQLInt | typeof GraphQLString, description: string) => ({ type: new GraphQLList(type), description });

function setting<K extends keyof Form['settings']>(key: K, type: typeof GraphQLString | typeof GraphQLBoolean, description: string) {
  return { type, description, resolve: (form: Form) => form.settings[key] as unknown };
}

function formFields(): Resolvers<Form> {
  const S = GraphQLString;
  const B = GraphQLBoolean;
  return {
    id: { type: GraphQLInt, description: 'Form ID', resolve: (f) => f.id },
    uid: { type: S, description: 'Form UID', resolve: (f) => f.uid },
    name: { type: S, description: 'Name', resolve: (f) => f.name },
    handle: { type: S, description: 'Handle', resolve: (f) => f.handle },
    hash: { type: S, description: 'Hash needed to submit the form', resolve: (f) => f.hash },
    color: setting('color', S, 'Color'),
    description: setting('description', S, 'Description'),
    returnUrl: setting('returnUrl', S, 'Return URL'),
    storeData: setting('storeData', B, 'Whether submissions are stored'),
    submissionTitleFormat: setting('submissionTitleFormat', S, 'Title format of new submissions'),
    submissionMutationName: { type: S, description: "Name of the form's submission mutation", resolve: (f) => mutationName(f) },
    extraPostUrl: setting('extraPostUrl', S, 'URL that receives a POST with the submitted data'),
    extraPostTriggerPhrase: setting('extraPostTriggerPhrase', S, 'Phrase in the extra POST response that is logged as an error'),
    ipCollectingEnabled: setting('ipCollectingEnabled', B, 'Whether IP addresses are stored'),
    ajax: { ...setting('ajaxEnabled', B, 'Whether ajax is enabled'), deprecationReason: 'Use ajaxEnabled.' },
    ajaxEnabled: setting('ajaxEnabled', B, 'Whether ajax is enabled'),
    showSpinner: setting('showSpinner', B, 'Spinner on the submit button'),
    showLoadingText: setting('showLoadingText', B, 'Loading text on the submit button'),
    loadingText: setting('loadingText', S, 'Loading text'),
    defaultStatus: {
      type: GraphQLInt,
      description: 'ID of the default status of new submissions',
      resolve: (f, _args, ctx) => ctx.svc.app.config.submissions.statuses.find((s) => s.handle === f.settings.defaultStatus)?.id ?? null,
    },
    formTemplate: setting('formTemplate', S, 'Default formatting template'),
    gtmEnabled: setting('gtmEnabled', B, 'Tag manager enabled'),
    gtmId: setting('gtmId', S, 'Tag manager ID'),
    gtmEventName: setting('gtmEventName', S, 'Tag manager event name'),
    honeypot: {
      type: Honeypot.iface,
      description: 'A fresh honeypot instance',
      resolve: (f, _args, ctx) => honeypotOf(f, ctx),
    },
    javascriptTest: {
      type: Honeypot.iface,
      description: 'The javascript test to send back as the mutation argument javascriptTest (null when the form has none)',
      resolve: (f, _args, ctx) => javascriptTestOf(f, ctx),
    },
    csrfToken: { type: CsrfToken.iface, description: 'A fresh CSRF token' },
    captcha: {
      type: FormCaptcha.iface,
      description: 'Captcha configuration',
      resolve: (f, _args, ctx) => {
        const active = ctx.svc.app.submit.captcha.activeFor(f);
        return { name: mutationName(f), handle: active?.provider ?? f.settings.captcha.provider, enabled: active !== null };
      },
    },
    fields: {
      type: new GraphQLList(FieldInterface),
      description: 'All fields of the form',
      args: { id: listArg(GraphQLInt, 'Field IDs'), hash: listArg(S, 'Field hashes'), handle: listArg(S, 'Field handles') },
    },
    pages: { type: new GraphQLList(PageInterface), description: 'Pages' },
    mailingListName: {
      type: new GraphQLList(S),
      description: 'Names of the mailing-list inputs (mailingList_<hash>)',
      resolve: (f) => f.fields.filter((field) => field.type === 'mailingList').map((field) => `mailingList_${field.hash}`),
    },
    successMessage: setting('successMessage', S, 'Success message'),
    errorMessage: setting('errorMessage', S, 'Error message'),
    disableSubmit: setting('disableSubmit', B, 'Disable the submit button while submitting'),
    disableReset: setting('disableReset', B, 'Reset the disabled state'),
    enctype: {
      type: S,
      description: 'Form enctype',
      resolve: (f) => (f.fields.some((field) => field.type === 'file') ? 'multipart/form-data' : 'application/x-www-form-urlencoded'),
    },
  };
}

interface FieldArgs {
  readonly id?: readonly number[] | null;
  readonly hash?: readonly string[] | null;
  readonly handle?: readonly string[] | null;
}

/** The signed fill timestamp of this request, when the form has a minimum fill time. */
function fillTimestamp(form: Form, ctx: SvcGraphqlContext): string | null {
  if (form.settings.spam.minimumFillSeconds <= 0) return null;
  const { fillTimestamps, now } = ctx.svc.app.submit;
  return fillTimestamps.issue(form, now().getTime());
}

function honeypotOf(form: Form, ctx: SvcGraphqlContext) {
  const { spam } = form.settings;
  if (!spam.honeypot && spam.minimumFillSeconds <= 0) return null;
  return { name: ctx.svc.app.submit.spamFields.honeypotName(form), value: '', hash: null, timestamp: fillTimestamp(form, ctx) };
}

function javascriptTestOf(form: Form, ctx: SvcGraphqlContext) {
  if (!form.settings.spam.javascriptTest) return null;
  const { spamFields } = ctx.svc.app.submit;
  return { name: spamFields.javascriptTestName(form), value: spamFields.javascriptTestValue(form), hash: null, timestamp: null };
}

/** Form fields that differ per request; everything else is read from the view. */
const DYNAMIC_FORM_FIELDS = {
  csrfToken: (_view: View, _args: unknown, ctx: SvcGraphqlContext) => lazyCsrfToken(ctx),
  // The fill timestamp is fresh per request (the rest of the honeypot is fixed per form).
  honeypot: (view: View, _args: unknown, ctx: SvcGraphqlContext) => honeypotOf(view.source as Form, ctx),
  fields: (view: View, args: FieldArgs) =>
    (view.allFields as View[]).filter(
      (field) =>
        (!args.id || args.id.includes(field.id as number)) &&
        (!args.hash || args.hash.includes(field.hash as string)) &&
        (!args.handle || (field.handle !== null && args.handle.includes(field.handle as string))),
    ),
};
const viewFormFields = () => schemaFields(formFields(), DYNAMIC_FORM_FIELDS);

export const FormInterface = new GraphQLInterfaceType({
  name: 'SvcFormInterface',
  description: 'A form: settings, pages, fields and security metadata.',
  fields: viewFormFields,
  resolveType: () => 'SvcForm',
});
const FormAlias = deprecatedAlias('FormInterface', FormInterface, viewFormFields, () => 'SvcForm');
export const FormObject = new GraphQLObjectType({ name: 'SvcForm', interfaces: [FormInterface, FormAlias], fields: viewFormFields });

const NOT_MATERIALISED = new Set(['csrfToken', 'fields', 'pages', 'honeypot']);
/** Views per app (honeypot names and status ids are per installation), then per form version. */
const formViews = new WeakMap<AppContext, WeakMap<Form, View>>();

/** The GraphQL source of a form, built once per form version. */
export function formView(form: Form, app: AppContext): View {
  let perApp = formViews.get(app);
  if (!perApp) {
    perApp = new WeakMap();
    formViews.set(app, perApp);
  }
  let view = perApp.get(form);
  if (!view) {
    const context = { svc: { app } } as SvcGraphqlContext;
    view = {
      ...materialize('SvcForm', formFields(), form, context, NOT_MATERIALISED),
      // Not in the schema: what the per-request resolvers read.
      source: form,
      pages: form.pages.map((page) => pageView(page, form)),
      allFields: allFields(form).map((field) => fieldView(field, form)),
    };
    perApp.set(form, view);
  }
  return view;
}

export const FORM_TYPES = [FormInterface, FormAlias, FormObject, PageInterface, PageAlias, PageObject, RowInterface, RowAlias, RowObject];
