/** The root query `svc { forms(...) form(...) }` (interface.md §4.8) and the headless adapters (contract §11). */
import { GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfigMap } from 'graphql';
import { SvcError, type Form } from '@svc/core';
import { parseSubmitRequest } from '../submissions/submit-request.js';
import { submitForm } from '../submissions/submit-pipeline.js';
import { FormInterface, formView } from './graphql-form-types.js';
import { JsonScalar } from './graphql-scalars.js';
import type { SvcGraphqlContext } from './graphql-context.js';
import { csrfFromToken } from './graphql-errors.js';
import { headlessCsrfToken } from './graphql-headless-csrf.js';
import { manifestData } from '../forms/manifest-builder.js';
import { readBrowserBinding } from '../security/browser-binding.js';
import { withKeys } from '../submissions/object-shapes.js';

interface FormArgs {
  readonly id?: readonly number[] | null;
  readonly uid?: readonly string[] | null;
  readonly handle?: readonly string[] | null;
  readonly limit?: number | null;
  readonly offset?: number | null;
  readonly orderBy?: string | null;
  readonly sort?: string | null;
  readonly site?: string | null;
}

/** The most forms one `forms` call returns. */
export const MAX_LIMIT = 100;

const ORDERABLE = { id: (f: Form) => f.id, uid: (f: Form) => f.uid, name: (f: Form) => f.name.toLowerCase(), handle: (f: Form) => f.handle } as const;

const formArgs = {
  id: { type: new GraphQLList(GraphQLInt), description: 'Narrow by form IDs' },
  uid: { type: new GraphQLList(GraphQLString), description: 'Narrow by form UIDs' },
  handle: { type: new GraphQLList(GraphQLString), description: 'Narrow by form handles' },
  limit: { type: GraphQLInt, description: 'Limit the number of forms' },
  offset: { type: GraphQLInt, description: 'Skip this many forms' },
  orderBy: { type: GraphQLString, description: 'Order by id, uid, name or handle' },
  sort: { type: GraphQLString, description: 'asc or desc' },
  site: { type: GraphQLString, description: 'A site handle: the forms in its language (default: the default site)' },
};

/** The forms this caller may read, filtered and ordered as asked. Forbidden forms are simply absent. */
function selectForms(args: FormArgs, ctx: SvcGraphqlContext): Form[] {
  const { app, principal } = ctx.svc;
  const orderBy = args.orderBy ?? 'id';
  if (!Object.hasOwn(ORDERABLE, orderBy)) throw new SvcError('PAYLOAD_INVALID', 'orderBy must be one of id, uid, name, handle.');
  const sort = (args.sort ?? 'asc').toLowerCase();
  if (sort !== 'asc' && sort !== 'desc') throw new SvcError('PAYLOAD_INVALID', 'sort must be asc or desc.');
  if ((args.limit ?? 0) < 0 || (args.offset ?? 0) < 0) throw new SvcError('PAYLOAD_INVALID', 'limit and offset must not be negative.');
  const key = ORDERABLE[orderBy as keyof typeof ORDERABLE];
  const offset = args.offset ?? 0;
  // The cost rule cannot see variable values, so a limit is capped here, where it is known.
  const limit = Math.min(args.limit ?? MAX_LIMIT, MAX_LIMIT);
  // `form(handle: "x")`, what clients send: one lookup by handle instead of filtering and sorting
  // every form (issue #17). The same filters apply, so the answer is the same.
  if (args.handle?.length === 1) {
    const form = app.forms.get(args.handle[0] as string);
    const matches = form && principal.canRead(form.handle) && (!args.id || args.id.includes(form.id)) && (!args.uid || args.uid.includes(form.uid));
    return matches ? [form].slice(offset, offset + limit) : [];
  }
  const forms = app.forms
    .list()
    .filter(
      (form) =>
        principal.canRead(form.handle) &&
        (!args.id || args.id.includes(form.id)) &&
        (!args.uid || args.uid.includes(form.uid)) &&
        (!args.handle || args.handle.includes(form.handle)),
    )
    .sort((a, b) => {
      const left = key(a);
      const right = key(b);
      const order = left < right ? -1 : left > right ? 1 : 0;
      return sort === 'asc' ? order : -order;
    });
  return forms.slice(offset, offset + limit);
}

export const SvcQuery = new GraphQLObjectType<unknown, SvcGraphqlContext>({
  name: 'Svc',
  description: 'Forms of the service.',
  fields: () => ({
    forms: {
      type: new GraphQLList(FormInterface),
      args: formArgs,
      resolve: (_r, args: FormArgs, ctx) => {
        const { app } = ctx.svc;
        const site = app.sites.resolve(args.site ?? undefined);
        return selectForms(args, ctx).map((form) => formView(app.localize(form, site.language), app));
      },
    },
    form: {
      type: FormInterface,
      args: formArgs,
      resolve: (_r, args: FormArgs, ctx) => {
        // withKeys, not `{ ...args, limit: 1 }`: 0.12 instead of 1.45 µs (object-shapes.ts).
        const { app } = ctx.svc;
        const site = app.sites.resolve(args.site ?? undefined);
        const [form] = selectForms(withKeys(args, { limit: 1 }), ctx);
        return form ? formView(app.localize(form, site.language), app) : null;
      },
    },
  }),
});

function readableForm(ctx: SvcGraphqlContext, handle: string): Form {
  const form = ctx.svc.app.forms.get(handle);
  if (!form || !ctx.svc.principal.canRead(handle)) throw new SvcError('FORM_NOT_FOUND', `Form "${handle.slice(0, 100)}" not found.`);
  return form;
}

export function headlessQueryFields(): GraphQLFieldConfigMap<unknown, SvcGraphqlContext> {
  return {
    svcHeadlessManifest: {
      type: JsonScalar,
      description: 'The REST manifest `data` of a form, for clients that talk GraphQL only.',
      args: { handle: { type: new GraphQLNonNull(GraphQLString) }, site: { type: GraphQLString, description: 'A site handle (default: the default site)' } },
      resolve: (_r, args: { handle: string; site?: string | null }, ctx) => {
        const { app } = ctx.svc;
        const found = readableForm(ctx, args.handle);
        const site = app.sites.resolve(args.site ?? undefined);
        const form = app.localize(found, site.language);
        const { fillTimestamps, now } = app.submit;
        // GraphQL has no conditional request: every manifest query is a view (issue #38).
        app.manifests.view(form, site);
        return manifestData(app.manifests.get(form, site), () => fillTimestamps.issue(form, now().getTime()));
      },
    },
  };
}

export function headlessMutationFields(): GraphQLFieldConfigMap<unknown, SvcGraphqlContext> {
  return {
    svcHeadlessSubmit: {
      type: JsonScalar,
      description: 'The REST submit (any intent; `submit` when omitted) answered with the REST submit object.',
      args: {
        handle: { type: new GraphQLNonNull(GraphQLString) },
        // contract §11: optional, as the official React demo declares `$intent: String`.
        intent: { type: GraphQLString, defaultValue: 'submit' },
        values: { type: JsonScalar },
        meta: { type: JsonScalar },
        context: { type: JsonScalar },
        csrfToken: { type: GraphQLString },
      },
      resolve: async (_r, args: { handle: string; intent?: string | null; values?: unknown; meta?: unknown; context?: unknown; csrfToken?: string | null }, ctx) => {
        const { app, principal, request } = ctx.svc;
        const form = app.forms.get(args.handle);
        if (!form || !principal.canSubmit(args.handle)) throw new SvcError('FORM_NOT_FOUND', `Form "${args.handle.slice(0, 100)}" not found.`);
        const body: Record<string, unknown> = { intent: args.intent ?? 'submit', values: args.values ?? {} };
        if (args.meta !== undefined && args.meta !== null) body.meta = args.meta;
        if (args.context !== undefined && args.context !== null) body.context = args.context;
        const submitRequest = parseSubmitRequest(body);
        // issue #34: the site is the request's `context.site`, as on REST.
        const site = app.sites.resolve(submitRequest.context.site);
        const result = await submitForm(app.submit, app.localize(form, site.language), {
          request: submitRequest,
          site,
          csrf: principal.token ? 'trusted' : csrfFromToken(ctx, headlessCsrfToken(ctx, args.csrfToken)),
          ip: request?.ip ?? null,
          browser: request ? readBrowserBinding(request, app.config.csrf) : undefined,
        });
        return result.body;
      },
    },
  };
}
