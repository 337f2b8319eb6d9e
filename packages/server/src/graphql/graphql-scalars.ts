/** Scalars of the svc schema: DateTime (ISO-8601 text) and SvcJson (the headless adapters' payloads). */
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An ISO-8601 date and time in UTC, e.g. 2026-11-22T10:00:00.000Z.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new TypeError('DateTime must be an ISO-8601 date');
    return date.toISOString();
  },
});

function literalToJson(node: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literalToJson(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalToJson(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
    default:
      return undefined;
  }
}

export const JsonScalar = new GraphQLScalarType({
  // contract §11: the official React demo declares its variables as FreeformJson, branded SvcJson.
  name: 'SvcJson',
  description: 'Any JSON value; the headless adapters carry the REST manifest and submit objects in it.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node, variables) => literalToJson(node, variables),
});
