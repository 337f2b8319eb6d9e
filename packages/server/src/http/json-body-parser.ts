/**
 * The JSON body parser for every route (REST, GraphQL): fastify's own (prototype poisoning
 * refused, size limited by `server.bodyLimitKB`), behind a one-pass check of how deeply the body
 * nests, so no recursive code (JSON.parse's callers, fingerprints, value coercion) ever sees a
 * body nested thousands of levels deep (issue #11).
 */
import type { FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import { nestingDepth } from './nesting-depth.js';

/** Far deeper than any form needs (a table of file cells is five levels), far shallower than a stack. */
export const MAX_JSON_DEPTH = 32;

/** Throws PAYLOAD_INVALID when `text` nests deeper than MAX_JSON_DEPTH. */
export function assertJsonDepth(text: string): void {
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new SvcError('PAYLOAD_INVALID', `The body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    try {
      assertJsonDepth(body as string);
    } catch (error) {
      done(error as SvcError, undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
