/**
 * Precomputed views: the GraphQL source objects for forms, pages, rows and fields, built once per
 * form version by running the field definitions' resolvers once. The schema's types then read
 * plain properties with default resolvers, which graphql-jit inlines; only values that differ per
 * request (a fresh CSRF token, `fields(...)` filtered by arguments) keep a resolver.
 */
import type { GraphQLFieldConfig, GraphQLFieldConfigMap, GraphQLResolveInfo } from 'graphql';
import type { SvcGraphqlContext } from './graphql-context.js';

export type View = Record<string, unknown> & { readonly __typename: string };

type FieldConfigs<TSource> = GraphQLFieldConfigMap<TSource, SvcGraphqlContext>;

/** The schema's side: every resolver dropped except the named dynamic ones. */
export function schemaFields<TSource>(
  fields: FieldConfigs<TSource>,
  dynamic: Readonly<Record<string, GraphQLFieldConfig<View, SvcGraphqlContext>['resolve']>> = {},
): GraphQLFieldConfigMap<View, SvcGraphqlContext> {
  const out: GraphQLFieldConfigMap<View, SvcGraphqlContext> = {};
  for (const [name, config] of Object.entries(fields)) {
    const { resolve: _computed, subscribe: _none, ...rest } = config;
    out[name] = Object.hasOwn(dynamic, name) ? { ...rest, resolve: dynamic[name] } : rest;
  }
  return out;
}

/** The view's side: each field's resolver run once against the source (none of them read `info`). */
export function materialize<TSource>(
  typename: string,
  fields: FieldConfigs<TSource>,
  source: TSource,
  context: SvcGraphqlContext,
  skip: ReadonlySet<string> = new Set(),
): View {
  const view: Record<string, unknown> = { __typename: typename };
  for (const [name, config] of Object.entries(fields)) {
    if (skip.has(name)) continue;
    view[name] = config.resolve
      ? config.resolve(source, {}, context, undefined as unknown as GraphQLResolveInfo)
      : ((source as Record<string, unknown>)[name] ?? null);
  }
  return view as View;
}
