/**
 * `save_<handle>_Submission` per form (interface.md §4.8, contract §11): one argument per field,
 * typed by its field type, mapped to the same submit pipeline as REST (whole form in one call).
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputType,
  type GraphQLInterfaceType,
} from 'graphql';
import { SvcError, type Field, type FieldType, type Form } from '@svc/core';
import { submitForm } from '../submissions/submit-pipeline.js';
import type { SubmitResult } from '../submissions/submit-response.js';
import { CaptchaInput, CsrfTokenInput, HoneypotInput, JavascriptTestInput, ProfileInput } from './graphql-helper-types.js';
import { graphqlHandle, mutationName, type GraphqlApp, type SvcGraphqlContext } from './graphql-context.js';
import { submissionFields, type HostTypes, type SubmissionSource } from './graphql-submission-types.js';
import { csrfFromToken, graphqlErrorFor } from './graphql-errors.js';
import { submitThroughProfile } from '../profiles/profile-submit.js';
import type { ResolvedProfile } from '../profiles/profile-registry.js';
import { withKeys } from '../submissions/object-shapes.js';

/** The named profile, which must serve this form: another form's profile is as unknown as none. */
function profileOf(app: GraphqlApp, name: string, handle: string): ResolvedProfile {
  const profile = app.profiles.registry.resolve(name);
  if (profile.form.handle !== handle) throw new SvcError('PROFILE_NOT_FOUND', `Profile "${name.slice(0, 100)}" does not serve this form.`);
  return profile;
}

function propertyEntries(properties: unknown): (readonly [string, unknown])[] {
  if (properties === undefined || properties === null) return [];
  if (typeof properties !== 'object' || Array.isArray(properties)) throw new SvcError('PROFILE_PROPERTY_INVALID', '`properties` must be an object.');
  return Object.entries(properties);
}

const LIST_OF_STRINGS = new GraphQLList(GraphQLString);

const ARGUMENT_TYPES: Readonly<Record<Exclude<FieldType, 'submit' | 'mailingList'>, GraphQLInputType>> = {
  text: GraphQLString,
  textarea: GraphQLString,
  select: GraphQLString,
  checkbox: GraphQLBoolean,
  multipleSelect: LIST_OF_STRINGS,
  checkboxGroup: LIST_OF_STRINGS,
  radioGroup: GraphQLString,
  email: GraphQLString,
  dynamicRecipients: LIST_OF_STRINGS,
  number: GraphQLFloat,
  file: LIST_OF_STRINGS,
  confirmation: GraphQLString,
  datetime: GraphQLString,
  opinionScale: GraphQLString,
  phone: GraphQLString,
  rating: GraphQLInt,
  regex: GraphQLString,
  signature: GraphQLString,
  table: new GraphQLList(LIST_OF_STRINGS),
  hidden: GraphQLString,
  // The intent id; a paid form is finished by the payment callback, never by this mutation (contract §8).
  payment: GraphQLString,
};

/** mailingList_<hash> (interface.md §4.8), everything else by handle. */
export function argumentName(field: Field): string {
  return field.type === 'mailingList' ? `mailingList_${field.hash}` : (field.handle as string);
}

function fieldArguments(form: Form): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {
    honeypot: { type: HoneypotInput, description: 'The honeypot, when the form uses one' },
    javascriptTest: { type: JavascriptTestInput, description: "The form's javascriptTest, when it uses one" },
    captcha: { type: CaptchaInput, description: 'The captcha response, when the form uses one' },
    csrfToken: { type: CsrfTokenInput, description: 'The CSRF token, unless a bearer token is sent' },
    // Not in interface.md: file fields take drag-and-drop upload ids, which only their uploader may claim.
    uploadToken: { type: GraphQLString, description: 'The X-Svc-Upload-Token the files named in file arguments were uploaded with' },
    // Not in interface.md: a submit through a named profile (contract §9), as REST's profile submit.
    svcProfile: { type: ProfileInput, description: 'Submit through a named profile of this form' },
    // Not in interface.md: the site submitted on (issue #34), as REST's context.site.
    svcSite: { type: GraphQLString, description: 'The site handle submitted on; its language words the errors (default: the default site)' },
  };
  for (const field of form.fields) {
    const type = field.type === 'mailingList' ? GraphQLInt : ARGUMENT_TYPES[field.type as keyof typeof ARGUMENT_TYPES];
    args[argumentName(field)] = { type, description: field.label };
  }
  return args;
}

function valuesFromArguments(form: Form, args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of form.fields) {
    const name = argumentName(field);
    if (!Object.hasOwn(args, name)) continue;
    const value = args[name];
    values[field.handle as string] = field.type === 'mailingList' ? value === 1 : value;
  }
  return values;
}

/** The submit result as a mutation answer: data on success, one error carrying the status otherwise. */
function answer(form: Form, result: SubmitResult, date: string, subject: string | null): SubmissionSource {
  const { body } = result;
  const values = result.stored?.values ?? {};
  // interface.md §8: a reached limit is reported through the submission's submissionLimitReached.
  if (body.success || body.status === 'limit_reached') return { form, result: body, values, date, files: result.stored?.files ?? [], subject };
  if (body.status === 'validation_failed') {
    throw graphqlErrorFor('VALIDATION_FAILED', body.message ?? 'The submission is not valid.', { fields: body.errors.fields, form: body.errors.form });
  }
  throw graphqlErrorFor(body.status.toUpperCase(), body.errors.form[0] ?? body.message ?? 'The submission was not accepted.', {
    form: body.errors.form,
  });
}

export function createSubmissionMutation(
  form: Form,
  submissionInterface: GraphQLInterfaceType,
  host: Required<HostTypes>,
): [string, GraphQLFieldConfig<unknown, SvcGraphqlContext>] {
  const resultType = new GraphQLObjectType<SubmissionSource, SvcGraphqlContext>({
    name: `${graphqlHandle(form)}_Submission`,
    description: `A submission of the form "${form.name}".`,
    interfaces: [submissionInterface],
    fields: submissionFields(host),
  });
  const handle = form.handle;
  return [
    mutationName(form),
    {
      type: resultType,
      description: `Create a submission of "${form.name}".`,
      args: fieldArguments(form),
      resolve: async (_root, args: Record<string, unknown>, ctx) => {
        const { app, principal, request } = ctx.svc;
        // Look the form up again: a reload may have replaced it since the schema was built.
        const current = app.forms.get(handle);
        // A profile's own rules decide who may submit through it, as on its REST route.
        const through = args.svcProfile as { name: string; properties?: unknown; token?: string | null; userToken?: string | null } | undefined;
        const profile = through ? profileOf(app, through.name, handle) : null;
        if (!current || (!profile && !principal.canSubmit(handle))) throw new SvcError('FORM_NOT_FOUND', `Form "${handle}" not found.`);
        const site = app.sites.resolve(typeof args.svcSite === 'string' ? args.svcSite : undefined);
        const values = valuesFromArguments(current, args);
        const honeypot = args.honeypot as { name: string; value: string; timestamp?: string | null } | undefined;
        const javascriptTest = args.javascriptTest as { name: string; value: string } | undefined;
        const captcha = args.captcha as { name: string; value: string } | undefined;
        // The same signals REST reads from `meta`, so one set of signals gets one verdict.
        const meta = {
          ...(honeypot ? { honeypot: { name: honeypot.name, value: honeypot.value, ...(honeypot.timestamp ? { timestamp: honeypot.timestamp } : {}) } } : {}),
          ...(javascriptTest ? { javascriptTest } : {}),
          ...(captcha ? { captchas: [captcha] } : {}),
        };
        const input = {
          request: {
            intent: 'submit' as const,
            values,
            meta,
            context: typeof args.uploadToken === 'string' ? { uploadToken: args.uploadToken } : {},
          },
          csrf: principal.token ? ('trusted' as const) : csrfFromToken(ctx, (args.csrfToken as { value?: string } | undefined)?.value),
          ip: request?.ip ?? null,
          site,
          wholeForm: true,
          // contract §11: interface §4.8 gives this mutation no javascript-test argument, so a client
          // following it sends none; svc's own `javascriptTest` argument is checked when sent.
          javascriptTestOptional: true,
        };
        const result = profile
          ? await submitThroughProfile(app.submit, app.profiles.services, profile, {
              ...input,
              properties: propertyEntries(through?.properties),
              authorization: through?.userToken ? `Bearer ${through.userToken}` : undefined,
              token: through?.token ?? undefined,
            })
          : withKeys(await submitForm(app.submit, app.localize(current, site.language), input), { subject: null });
        return answer(profile?.form ?? current, result, result.stored?.createdAt ?? app.submit.now().toISOString(), result.subject);
      },
    },
  ];
}
