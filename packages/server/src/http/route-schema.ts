/**
 * Route schemas for the OpenAPI document (issue #16). They describe the wire; they do not enforce
 * it: svc's own parsers answer bad input with catalogue codes, and clients read keys no schema
 * lists, so the openapi room turns off fastify's validation and schema serialisation for every
 * schema made here (and only those: mercurius's routes keep theirs). A schema made any other way
 * would be enforced by fastify, which is why every REST route goes through `routeSchema`.
 */
import { Type, type TSchema } from '@sinclair/typebox';

/** A response given as bytes of one or more media types (HTML, CSV, a file, or JSON beside them). */
export interface ContentResponse {
  readonly description: string;
  readonly content: Readonly<Record<string, { readonly schema: TSchema }>>;
}

/** A response without a body (304, a redirect): `type: 'null'` is how @fastify/swagger says so. */
export interface EmptyResponse {
  readonly type: 'null';
  readonly description: string;
}

export type ResponseSchema = TSchema | ContentResponse | EmptyResponse;

export interface RouteSchema {
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  /** Kept out of the document but still checked (the classic post's catch-all path). */
  readonly hide?: boolean;
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly params?: TSchema;
  readonly querystring?: TSchema;
  readonly headers?: TSchema;
  readonly body?: TSchema | { readonly content: Readonly<Record<string, { readonly schema: TSchema }>> };
  /** Every status the route answers. The strict check (SVC_OPENAPI_STRICT=1) refuses any other. */
  readonly response: Readonly<Record<number, ResponseSchema>>;
}

const documented = new WeakSet<object>();
const shared = new Map<string, TSchema>();

/**
 * A schema many routes share (the error envelopes, the manifest, the submit object): kept once,
 * as a component of the document, and referenced by `$ref` from each route.
 */
export function sharedSchema(id: string, schema: TSchema): TSchema {
  const existing = shared.get(id);
  if (existing && existing !== schema && JSON.stringify(existing) !== JSON.stringify({ ...schema, $id: id })) throw new Error(`Two shared schemas are named ${id}`);
  shared.set(id, { ...schema, $id: id });
  return Type.Unsafe({ $ref: `${id}#` });
}

/** Every shared schema, for fastify.addSchema (the document) and the strict check's ajv. */
export function sharedSchemas(): readonly TSchema[] {
  return [...shared.values()];
}

/** Marks a schema as documentation only (see the header) and returns it. */
export function routeSchema(schema: RouteSchema): RouteSchema {
  documented.add(schema);
  return schema;
}

export function isRouteSchema(schema: unknown): schema is RouteSchema {
  return typeof schema === 'object' && schema !== null && documented.has(schema);
}

/** An HTML page (classic answers, the payment callback). */
export function htmlResponse(description: string): ContentResponse {
  return { description, content: { 'text/html': { schema: Type.String() } } };
}

/** No body: a redirect (Location header) or 304. */
export function emptyResponse(description: string): EmptyResponse {
  return { type: 'null', description };
}

/** JSON for a script or HTML for a browser, as the classic post answers the same status. */
export function jsonOrHtml(description: string, json: TSchema): ContentResponse {
  return { description, content: { 'application/json': { schema: json }, 'text/html': { schema: Type.String() } } };
}

/** Path parameters, all strings as they arrive. */
export function pathParams<K extends string>(names: Readonly<Record<K, string>>): TSchema {
  return Type.Object(
    Object.fromEntries(Object.entries(names).map(([name, description]) => [name, Type.String({ description: description as string })])),
    { additionalProperties: false },
  );
}

/** `meta.pluginVersion` of every success envelope (contract §1), with room for more keys. */
export function metaOf(extra: Record<string, TSchema> = {}): TSchema {
  return Type.Object({ pluginVersion: Type.String(), ...extra });
}

/** `{success: true, data, meta}`, the envelope of the manifest, uploads and the admin API. */
export function dataEnvelope(data: TSchema, meta: TSchema = metaOf()): TSchema {
  return Type.Object({ success: Type.Literal(true), data, meta }, { additionalProperties: false });
}

/** The schema with the sentence the document shows for its response. */
export function described(description: string, schema: TSchema): TSchema {
  return { ...schema, description };
}
