/**
 * Assembles the svc schema from the live forms. Static types are module singletons; per-form
 * mutation and submission types are rebuilt whenever the forms change. `svcSchemaParts` exposes
 * the pieces so a host can embed them in its own schema (graphql-embed.ts).
 */
import { GraphQLObjectType, GraphQLSchema, type GraphQLFieldConfigMap, type GraphQLNamedType } from 'graphql';
import type { Form } from '@svc/core';
import { FIELD_INTERFACES, FIELD_OBJECT_TYPES } from './graphql-field-types.js';
import { FORM_TYPES } from './graphql-form-types.js';
import { HELPER_TYPES, CaptchaInput, CsrfTokenInput, HoneypotInput } from './graphql-helper-types.js';
import { DateTimeScalar, JsonScalar } from './graphql-scalars.js';
import { createSubmissionInterface, defaultHostTypes, type HostTypes } from './graphql-submission-types.js';
import { createSubmissionMutation } from './graphql-mutations.js';
import { headlessMutationFields, headlessQueryFields, SvcQuery } from './graphql-queries.js';
import type { SvcGraphqlContext } from './graphql-context.js';
import { insightsQueryFields } from './graphql-insights.js';

export interface SvcSchemaParts {
  readonly queryFields: GraphQLFieldConfigMap<unknown, SvcGraphqlContext>;
  readonly mutationFields: GraphQLFieldConfigMap<unknown, SvcGraphqlContext>;
  /** Every named type, so types reached only through interfaces are in the schema. */
  readonly types: readonly GraphQLNamedType[];
}

export function svcSchemaParts(forms: readonly Form[], hostTypes: HostTypes = {}): SvcSchemaParts {
  const host = { ...defaultHostTypes(), ...hostTypes };
  const submissionInterface = createSubmissionInterface(host);
  const mutationFields: GraphQLFieldConfigMap<unknown, SvcGraphqlContext> = { ...headlessMutationFields() };
  for (const form of forms) {
    const [name, config] = createSubmissionMutation(form, submissionInterface, host);
    mutationFields[name] = config;
  }
  return {
    queryFields: { svc: { type: SvcQuery, description: 'Forms of the service.', resolve: () => ({}) }, ...headlessQueryFields(), ...insightsQueryFields() },
    mutationFields,
    types: [
      ...FORM_TYPES,
      ...FIELD_INTERFACES,
      ...FIELD_OBJECT_TYPES,
      ...HELPER_TYPES,
      HoneypotInput,
      CaptchaInput,
      CsrfTokenInput,
      submissionInterface,
      host.User,
      host.Asset,
      DateTimeScalar,
      JsonScalar,
    ],
  };
}

export function buildSvcSchema(forms: readonly Form[]): GraphQLSchema {
  const parts = svcSchemaParts(forms);
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: parts.queryFields }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: parts.mutationFields }),
    types: [...parts.types],
  });
}
