/**
 * interface.md §9.3: the un-prefixed interface names are deprecated. GraphQL can deprecate fields
 * but not types, so each old name stays as an interface with the same fields, implemented by the
 * same objects (old `... on FormInterface` fragments keep working), and its description names the
 * replacement so introspection shows the deprecation.
 */
import { GraphQLInterfaceType, type GraphQLFieldConfigMap, type GraphQLTypeResolver } from 'graphql';

export function deprecatedAlias<TSource, TContext>(
  oldName: string,
  replacement: GraphQLInterfaceType,
  fields: () => GraphQLFieldConfigMap<TSource, TContext>,
  resolveType: GraphQLTypeResolver<TSource, TContext>,
): GraphQLInterfaceType {
  return new GraphQLInterfaceType({
    name: oldName,
    description: `Deprecated: use ${replacement.name}. ${replacement.description ?? ''}`.trim(),
    fields,
    resolveType,
  });
}
