/**
 * The language a refusal is worded in (issue #34, DESIGN principle 10): the site a request names
 * (`?site=`, or a submit body's `context.site`), when that site speaks anything but English. A
 * request naming no site, or an English one, keeps the catalogue's English words exactly, details
 * included ("Form "x" not found."); a translated message says what the catalogue says, no more.
 */
import { SvcError, errorMessage, resolveLanguage } from '@svc/core';
import type { FastifyRequest } from 'fastify';
import { siteOfQuery, type SiteRegistry } from './site-registry.js';

function siteOfBody(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const context = (body as { context?: unknown }).context;
  if (context === null || typeof context !== 'object') return undefined;
  const site = (context as { site?: unknown }).site;
  return typeof site === 'string' ? site : undefined;
}

/** The site language of a request, or null when it names no known site. */
export function requestLanguage(sites: SiteRegistry, request: FastifyRequest): string | null {
  const handle = siteOfBody(request.body) ?? siteOfQuery(request.query);
  if (handle === undefined) return null;
  return sites.list.find((site) => site.handle === handle)?.language ?? null;
}

/** `error` in the request's site language; itself when that is English or none. */
export function localizeError(sites: SiteRegistry, request: FastifyRequest, error: SvcError): SvcError {
  // INTERNAL carries the request id an operator needs; it stays as it is.
  if (error.code === 'INTERNAL') return error;
  const language = requestLanguage(sites, request);
  if (language === null || resolveLanguage(language) === 'en') return error;
  return new SvcError(error.code, errorMessage(language, error.code), { details: error.details, headers: { ...error.headers } });
}
