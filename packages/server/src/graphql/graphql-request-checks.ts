/**
 * What a GraphQL request must be before mercurius and graphql-js see it (issue #11): a JSON body
 * of the GraphQL-over-HTTP shape, a document that does not nest deeper than any query of ours
 * could (checked by one pass over the text, before the recursive parser runs), and an
 * operationName that names an operation of the document. Everything refused here is the client's
 * mistake and answers with a catalogue code, never INTERNAL.
 */
import type { FastifyRequest } from 'fastify';
import { Kind, parse } from 'graphql';
import { SvcError } from '@svc/core';
import { nestingDepth } from '../http/nesting-depth.js';
import { assertJsonDepth } from '../http/json-body-parser.js';

/** GraphQL-over-HTTP bodies are objects with a string query; anything else is a client error. */
function assertGraphqlBody(body: unknown): void {
  if (body === undefined) return;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SvcError('PAYLOAD_INVALID', 'The body must be a JSON object with a "query".');
  }
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (query !== undefined && typeof query !== 'string') throw new SvcError('PAYLOAD_INVALID', '"query" must be a string.');
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    throw new SvcError('PAYLOAD_INVALID', '"variables" must be an object.');
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw new SvcError('PAYLOAD_INVALID', '"operationName" must be a string.');
  }
}

/**
 * The text nesting allowed: a selection depth of `maxDepth` plus the braces, brackets and
 * parentheses of fragments and argument literals around it. Far below what recursion survives.
 */
function textDepthLimit(maxDepth: number): number {
  return maxDepth * 3 + 8;
}

/**
 * Whether `text` is JSON. An executable GraphQL document starts with a keyword or with `{` then a
 * field name, so only texts that start as JSON must start (`{"`, `{}`, `[`, a string, a number,
 * true, false, null) are parsed; a throwing JSON.parse on every query would cost (issue #17).
 */
function isJson(text: string): boolean {
  const trimmed = text.trimStart();
  const first = trimmed[0] ?? '';
  if (first === '{') {
    const next = trimmed.slice(1).trimStart()[0];
    if (next !== '"' && next !== '}') return false;
  } else if (!/^[["\d-]/.test(first) && !/^(true|false|null)\s*$/.test(trimmed)) {
    return false;
  }
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Documents remembered per depth limit, at most this many (mercurius keeps 1,024 in its own cache). */
const REMEMBERED_MAX = 500;

/**
 * Documents already found well-shaped, per depth limit, by a fingerprint of their text. Clients
 * repeat their documents: each is scanned once, and a repeat is answered with the remembered
 * string itself. Looking a document up by its text costs V8 a hash of all of it (11 µs for the
 * 8.6 KB form query, issue #17), paid again by mercurius's query cache for every new string; the
 * fingerprint reads a few characters, `===` compares memory, and the remembered string carries
 * its hash from the first time, so mercurius's lookup costs nothing either.
 */
const REMEMBERED = new Map<number, Map<number, string[]>>();
let rememberedCount = 0;

/** The length and eight characters spread over the text: cheap, and equal for equal texts. */
function fingerprint(text: string): number {
  const length = text.length;
  let hash = length;
  for (let k = 1; k <= 8; k += 1) hash = (Math.imul(hash, 31) + text.charCodeAt(Math.floor((length * k) / 9))) | 0;
  return hash;
}

/** `document` checked, or the remembered string equal to it. */
function checkedDocument(document: string, operationName: string | undefined, maxDepth: number): string {
  // With an operationName the check covers the pair, so only bare documents are remembered.
  if (operationName !== undefined) {
    assertDocumentShape(document, operationName, maxDepth);
    return document;
  }
  const print = fingerprint(document);
  for (const candidate of REMEMBERED.get(maxDepth)?.get(print) ?? []) if (candidate === document) return candidate;
  assertDocumentShape(document, undefined, maxDepth);
  if (rememberedCount >= REMEMBERED_MAX) {
    REMEMBERED.clear();
    rememberedCount = 0;
  }
  let byPrint = REMEMBERED.get(maxDepth);
  if (!byPrint) REMEMBERED.set(maxDepth, (byPrint = new Map()));
  const bucket = byPrint.get(print);
  if (bucket) bucket.push(document);
  else byPrint.set(print, [document]);
  rememberedCount += 1;
  return document;
}

function assertDocumentShape(document: string, operationName: string | undefined, maxDepth: number): void {
  const limit = textDepthLimit(maxDepth);
  if (nestingDepth(document, limit, { graphql: true }) > limit) {
    throw new SvcError('QUERY_TOO_DEEP', `The query nests deeper than the limit of ${maxDepth} allows.`);
  }
  // mercurius reads a query that fails to parse as a JSON AST, and then crashes on it; no JSON text
  // is a GraphQL document (and parsing JSON fails at once on a real query), so refuse it here.
  if (isJson(document)) throw new SvcError('PAYLOAD_INVALID', 'The query must be a GraphQL document, not JSON.');
  if (!operationName) return;
  let names: (string | undefined)[];
  try {
    names = parse(document).definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.name?.value] : []));
  } catch {
    // A syntax error is reported by the normal path, with its location.
    return;
  }
  if (!names.includes(operationName)) {
    throw new SvcError('PAYLOAD_INVALID', `The document has no operation named "${operationName.slice(0, 100)}".`);
  }
}

/**
 * Refuses what is not a GraphQL request svc answers, and puts the remembered copy of a repeated
 * document in place of the one that arrived (same text: see checkedDocument).
 */
export function assertGraphqlRequest(request: FastifyRequest, maxDepth: number): void {
  if (request.method === 'GET') {
    const query = request.query as Record<string, unknown>;
    // An empty parameter is an absent one (a form or client serialising a blank value); handed on,
    // mercurius looked for an operation named "" or parsed "" as JSON and answered INTERNAL.
    for (const name of ['operationName', 'variables', 'extensions']) if (query[name] === '') delete query[name];
    const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
    const variables = text('variables');
    if (variables !== undefined) assertJsonDepth(variables);
    const document = text('query');
    if (document !== undefined) query.query = checkedDocument(document, text('operationName'), maxDepth);
    return;
  }
  // An application/graphql body arrives here as {query} (mercurius's parser).
  const body = request.body;
  assertGraphqlBody(body);
  const { query, operationName } = (body ?? {}) as { query?: string; operationName?: string | null };
  if (typeof query === 'string') (body as { query: string }).query = checkedDocument(query, operationName ?? undefined, maxDepth);
}
