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

/** Documents already found well-shaped, per depth limit: clients repeat theirs, so each is scanned once (issue #17). */
const CHECKED = new Map<number, Set<string>>();
const CHECKED_MAX = 500;

function assertDocument(document: string, operationName: string | undefined, maxDepth: number): void {
  let checked = CHECKED.get(maxDepth);
  if (!checked) CHECKED.set(maxDepth, (checked = new Set()));
  if (operationName === undefined && checked.has(document)) return;
  assertDocumentShape(document, operationName, maxDepth);
  if (operationName === undefined) {
    if (checked.size >= CHECKED_MAX) checked.clear();
    checked.add(document);
  }
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

export function assertGraphqlRequest(request: FastifyRequest, maxDepth: number): void {
  if (request.method === 'GET') {
    const query = request.query as Record<string, unknown>;
    const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
    const variables = text('variables');
    if (variables !== undefined) assertJsonDepth(variables);
    const document = text('query');
    if (document !== undefined) assertDocument(document, text('operationName'), maxDepth);
    return;
  }
  // An application/graphql body arrives here as {query} (mercurius's parser).
  const body = request.body;
  assertGraphqlBody(body);
  const { query, operationName } = (body ?? {}) as { query?: string; operationName?: string | null };
  if (typeof query === 'string') assertDocument(query, operationName ?? undefined, maxDepth);
}
