/**
 * SvcSubmissionInterface (interface.md §2.8) and the host-side `User` and `Asset` types it names.
 * Each form's `<handle>_Submission` object implements the interface (see graphql-mutations.ts).
 */
import {
  GraphQLBoolean,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
} from 'graphql';
import type { Form } from '@svc/core';
import type { SubmitBody } from '../submissions/submit-response.js';
import { CsrfToken, Honeypot, SubmissionCaptcha } from './graphql-helper-types.js';
import { DateTimeScalar } from './graphql-scalars.js';
import type { UploadRow } from '../files/upload-repository.js';
import { lazyCsrfToken, type SvcGraphqlContext } from './graphql-context.js';

export interface SubmissionSource {
  readonly form: Form;
  readonly result: SubmitBody;
  /** What was stored (visible, normalised values). */
  readonly values: Readonly<Record<string, unknown>>;
  readonly date: string;
  /** The files the submission claimed (contract §7). */
  readonly files: readonly UploadRow[];
  /** The signed-in person a profile submission came from (issue #13), or null. */
  readonly subject: string | null;
}

export interface HostTypes {
  readonly User?: GraphQLObjectType;
  readonly Asset?: GraphQLObjectType;
}

export function defaultHostTypes(): Required<HostTypes> {
  return {
    User: new GraphQLObjectType({
      name: 'User',
      description: "The author of a submission: the signed-in person of a profile submission (svc has no users of its own), else null.",
      fields: {
        id: { type: GraphQLInt, description: 'Always null: the person is known by the identity provider, not by svc' },
        username: { type: GraphQLString, description: "The identity provider's subject (`sub`) for the person" },
      },
    }),
    Asset: new GraphQLObjectType({
      name: 'Asset',
      description: 'A file attached to a submission.',
      fields: {
        id: { type: GraphQLString, description: 'The upload id (as named in the submitted values)' },
        filename: { type: GraphQLString, description: "The client's file name (metadata only)" },
        extension: { type: GraphQLString, description: 'Extension of the sniffed content' },
        kind: { type: GraphQLString, description: 'image, pdf, document, spreadsheet, audio, video, archive or text' },
        size: { type: GraphQLInt, description: 'Size in bytes' },
        field: { type: GraphQLString, description: 'Handle of the field the file was uploaded for' },
        url: { type: GraphQLString, description: 'Always null: files are not public; site owners fetch them through the admin API' },
      },
    }),
  };
}

export function submissionFields(host: Required<HostTypes>): () => GraphQLFieldConfigMap<SubmissionSource, SvcGraphqlContext> {
  const payload = ({ values }: SubmissionSource) => JSON.stringify(values);
  return () => ({
    id: { type: GraphQLInt, description: 'Submission ID', resolve: ({ result }) => result.submission?.id ?? null },
    submissionId: { type: GraphQLInt, description: 'Submission ID', resolve: ({ result }) => result.submission?.id ?? null },
    finished: { type: GraphQLBoolean, description: 'Whether the submission is finished', resolve: ({ result }) => result.complete },
    svcPayload: { type: GraphQLString, description: 'The stored values as JSON', resolve: payload },
    freeformPayload: { type: GraphQLString, description: 'The stored values as JSON', resolve: payload, deprecationReason: 'Use svcPayload.' },
    hash: { type: GraphQLString, description: 'Form hash', resolve: ({ form }) => form.hash },
    captcha: { type: SubmissionCaptcha.iface, description: 'Captcha name and value', resolve: () => null },
    csrfToken: { type: CsrfToken.iface, description: 'A fresh CSRF token for the next submission', resolve: (_s, _a, ctx) => lazyCsrfToken(ctx) },
    honeypot: {
      type: Honeypot.iface,
      description: 'A fresh honeypot for the next submission',
      resolve: ({ form }, _a, ctx) => (form.settings.spam.honeypot ? { name: ctx.svc.app.submit.spamFields.honeypotName(form), value: '' } : null),
    },
    html: { type: GraphQLString, description: 'Generated HTML; svc is headless, so always null', resolve: () => null },
    multiPage: { type: GraphQLBoolean, description: 'Whether the form has several pages', resolve: ({ form }) => form.pages.length > 1 },
    onSuccess: { type: GraphQLString, description: 'Success behaviour: message, redirect or reload', resolve: ({ form }) => form.settings.successBehavior },
    returnUrl: { type: GraphQLString, description: 'Return URL', resolve: ({ result }) => result.redirect?.url ?? null },
    submissionLimitReached: { type: GraphQLBoolean, description: "Whether the form's submission limit is reached", resolve: ({ result }) => result.status === 'limit_reached' },
    submissionToken: { type: GraphQLString, description: 'Token of the stored submission', resolve: ({ result }) => result.submission?.token ?? null },
    success: { type: GraphQLBoolean, description: 'Whether the submission succeeded', resolve: ({ result }) => result.success },
    dateCreated: { type: DateTimeScalar, description: 'Creation date', resolve: ({ date }) => date },
    dateUpdated: { type: DateTimeScalar, description: 'Update date', resolve: ({ date }) => date },
    // contract §4 simulate_success: a flagged submission is answered exactly like a clean one.
    isSpam: { type: GraphQLBoolean, description: 'Always false to the submitter (spam is never revealed)', resolve: () => false },
    spamReasons: { type: GraphQLString, description: 'Never revealed to the submitter', resolve: () => null },
    user: { type: host.User, description: 'Author', resolve: ({ subject }) => (subject ? { id: null, username: subject } : null) },
    assets: {
      type: new GraphQLList(host.Asset),
      description: 'Files',
      resolve: ({ files }) =>
        files.map((f) => ({ id: f.publicId, filename: f.name, extension: f.extension, kind: f.kind, size: f.size, field: f.fieldHandle, url: null })),
    },
  });
}

export function createSubmissionInterface(host: Required<HostTypes>): GraphQLInterfaceType {
  return new GraphQLInterfaceType({
    name: 'SvcSubmissionInterface',
    description: 'The outcome of a submission mutation.',
    fields: submissionFields(host),
    resolveType: (source: SubmissionSource) => `${source.form.handle.replace(/[^A-Za-z0-9_]/g, '_')}_Submission`,
  });
}
