/**
 * Embedding svc in a host's GraphQL schema (interface.md §4.8, last row): the host adds a
 * form-typed field to its own types (e.g. `Entry.contactForm`) and the svc query and mutation
 * fields to its roots, and puts `svc` into its resolver context.
 *
 * @example
 * const svc = createSvcEmbedding(app.context);
 * const Entry = new GraphQLObjectType({ name: 'Entry', fields: {
 *   title: { type: GraphQLString },
 *   contactForm: svc.formField((entry: { formHandle: string }) => entry.formHandle),
 * } });
 * const schema = svc.extend(new GraphQLSchema({ query: hostQuery, types: [Entry] }));
 * await graphql({ schema, source, contextValue: { ...hostContext, svc: svc.context({ request, reply }) } });
 */
import { GraphQLObjectType, GraphQLSchema, type GraphQLFieldConfig, type GraphQLFieldConfigMap } from 'graphql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createAccessControl } from './graphql-access.js';
import { FormInterface, formView } from './graphql-form-types.js';
import { svcSchemaParts } from './graphql-schema.js';
import type { HostTypes } from './graphql-submission-types.js';
import type { GraphqlApp, SvcGraphqlContext, SvcRequestContext } from './graphql-context.js';

export interface SvcEmbedding {
  /** The interface a host field returns (`SvcFormInterface`). */
  readonly formInterface: typeof FormInterface;
  /** A field of type SvcFormInterface resolving the form named by the host object; null when absent or not readable. */
  formField<TSource>(handleOf: (source: TSource) => string | null | undefined): GraphQLFieldConfig<TSource, SvcGraphqlContext>;
  /** The host schema with svc's root fields and types added. Rebuild it when `onFormsChange` fires. */
  extend(host: GraphQLSchema): GraphQLSchema;
  /** The `svc` entry of the host's resolver context, for the caller of this request. */
  context(options?: { request?: FastifyRequest; reply?: FastifyReply; authorization?: string }): SvcRequestContext;
  onFormsChange(listener: () => void): void;
}

function extendRoot(
  root: GraphQLObjectType | null | undefined,
  name: string,
  fields: GraphQLFieldConfigMap<unknown, SvcGraphqlContext>,
): GraphQLObjectType {
  const config = root?.toConfig();
  return new GraphQLObjectType({
    ...(config ?? { name }),
    fields: { ...(config?.fields ?? {}), ...(fields as GraphQLFieldConfigMap<unknown, unknown>) },
  });
}

export function createSvcEmbedding(app: GraphqlApp, options: { hostTypes?: HostTypes } = {}): SvcEmbedding {
  const access = createAccessControl(app.config);
  return {
    formInterface: FormInterface,
    formField(handleOf) {
      return {
        type: FormInterface,
        description: 'A form of the svc service.',
        resolve: (source, _args, ctx) => {
          const handle = handleOf(source);
          const form = handle && ctx.svc.principal.canRead(handle) ? app.forms.get(handle) : undefined;
          return form ? formView(form, app) : null;
        },
      };
    },
    extend(host) {
      const parts = svcSchemaParts(app.forms.list(), options.hostTypes);
      const config = host.toConfig();
      const query = extendRoot(config.query, 'Query', parts.queryFields);
      const mutation = extendRoot(config.mutation, 'Mutation', parts.mutationFields);
      const hostTypes = config.types.filter((t) => t !== config.query && t !== config.mutation && !t.name.startsWith('__'));
      const known = new Set(hostTypes.map((t) => t.name));
      return new GraphQLSchema({
        ...config,
        query,
        mutation,
        types: [...hostTypes, ...parts.types.filter((t) => !known.has(t.name))],
      });
    },
    context({ request, reply, authorization } = {}) {
      const principal = access.principalFor(authorization ?? request?.headers.authorization);
      return { app, principal, request, reply, csrfToken: () => null };
    },
    onFormsChange(listener) {
      app.forms.onChange(listener);
    },
  };
}
