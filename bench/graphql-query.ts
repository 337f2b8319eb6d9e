/**
 * The benchmark's GraphQL query: `svc { form(handle) { … } }` selecting every form field and,
 * through pages and rows, every field with an inline fragment per `SvcField_<Type>`, generated
 * from the schema so it stays "all fields" as the schema grows.
 */
import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

function selection(type: GraphQLNamedType, depth: number): string {
  if (!isObjectType(type) && !isInterfaceType(type)) return '';
  const parts = Object.values(type.getFields() as Record<string, GraphQLField<unknown, unknown>>)
    .filter((field) => field.args.every((arg) => !String(arg.type).endsWith('!')) && !field.deprecationReason)
    .map((field) => {
      const named = getNamedType(field.type);
      if (isObjectType(named) || isInterfaceType(named)) return depth > 0 ? `${field.name} { __typename ${selection(named, depth - 1)} }` : '';
      return field.name;
    })
    .filter(Boolean);
  return parts.join(' ');
}

export function fullFormQuery(schema: GraphQLSchema, handle: string): string {
  const fieldTypes = Object.values(schema.getTypeMap()).filter((t) => t.name.startsWith('SvcField_'));
  const fragments = fieldTypes.map((t) => `... on ${t.name} { ${selection(t, 1)} }`).join(' ');
  const form = schema.getType('SvcFormInterface') as GraphQLNamedType;
  const formScalars = selection(form, 0);
  return `query Full { svc { form(handle: "${handle}") { __typename ${formScalars}
    honeypot { __typename name value } csrfToken { __typename name } captcha { __typename name handle enabled }
    pages { __typename index label rows { __typename id fields { __typename ${selection(schema.getType('SvcFieldInterface') as GraphQLNamedType, 1)} ${fragments} } } } } } }`;
}
