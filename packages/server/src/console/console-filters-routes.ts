/**
 * Saved filters (issue #35 item 7): save the list's current filter under a name, delete one.
 * A saved filter is the account's own preference, not a change to any submission, so a reader
 * may keep them too: the request must be signed in, same-origin and carry the session's CSRF
 * token, but no write scope is asked and nothing goes to the audit log.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';
import { safeEqual } from '../security/token-crypto.js';
import { CONSOLE_BASE } from './console-pages.js';
import type { ConsoleKit, Entries, SignedIn } from './console-kit.js';
import { deleteFilter, listSavedFilters, MAX_FILTERS_PER_FORM, saveFilter, type SavedFilter } from './console-filters-repository.js';
import { renderSavedFilters } from './console-filters-pages.js';
import { flash } from './console-flash.js';

/**
 * What a saved query may hold: the list's filters (LIST_FILTERS of console-submission-routes.ts,
 * which imports this file, hence spelled out here) and its columns; never a cursor.
 */
const KEPT = new Set<string>(['status', 'spam', 'from', 'to', 'q', 'order', 'columns']);
const MAX_QUERY_CHARS = 2000;

/** The list's query string as a saved filter keeps it: known names only, in a stable order. */
export function filterQuery(raw: string): string {
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(raw)) if (KEPT.has(name) && value !== '') kept.append(name, value.slice(0, 200));
  kept.sort();
  return kept.toString();
}

const ownerOf = (current: SignedIn) => `${current.session.kind}:${current.session.name}`;

/** The saved-filters bar for the list page of `handle`, as `current` sees it. */
export async function savedFiltersHtml(kit: ConsoleKit, current: SignedIn, handle: string, request: FastifyRequest): Promise<string> {
  const saved: SavedFilter[] = await listSavedFilters(kit.ctx.database.db, ownerOf(current), handle);
  const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  return renderSavedFilters(handle, saved, filterQuery(search), current.viewer);
}

export async function consoleFiltersRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { services, signedIn, assertSameOrigin } = kit;

  const member = async (request: FastifyRequest<{ Params: { handle: string } }>) => {
    assertSameOrigin(request);
    const current = await signedIn(request);
    if (!current) throw new SvcError('AUTH_REQUIRED', 'Sign in to the console again.');
    const token = ((request.body ?? {}) as Entries)['csrf'];
    if (typeof token !== 'string' || !safeEqual(token, current.viewer.csrf)) throw new SvcError('CSRF_INVALID');
    if (!current.principal.canRead(request.params.handle) || !services.forms.get(request.params.handle)) throw new SvcError('FORM_NOT_FOUND');
    return current;
  };

  scope.post<{ Params: { handle: string }; Body: Entries }>(`${CONSOLE_BASE}/forms/:handle/filters`, async (request, reply) => {
    const current = await member(request);
    const body = (request.body ?? {}) as Entries;
    const name = typeof body['name'] === 'string' ? body['name'].trim() : '';
    if (name === '' || name.length > 60) throw new SvcError('PAYLOAD_INVALID', 'Name the filter in 1 to 60 characters.');
    const query = filterQuery(typeof body['query'] === 'string' ? body['query'] : '');
    if (query.length > MAX_QUERY_CHARS) throw new SvcError('PAYLOAD_INVALID', 'That filter is too long to save.');
    if (!(await saveFilter(kit.ctx.database.db, ownerOf(current), request.params.handle, name, query, services.now()))) {
      throw new SvcError('PAYLOAD_INVALID', `You have ${MAX_FILTERS_PER_FORM} saved filters for this form: delete one first.`);
    }
    flash(reply, kit, `Filter “${name}” saved.`);
    const base = `${CONSOLE_BASE}/forms/${encodeURIComponent(request.params.handle)}`;
    return reply.redirect(query ? `${base}?${query}` : base, 303);
  });

  scope.post<{ Params: { handle: string; id: string }; Body: Entries }>(`${CONSOLE_BASE}/forms/:handle/filters/:id/delete`, async (request, reply) => {
    const current = await member(request);
    const id = /^[1-9]\d{0,14}$/.test(request.params.id) ? Number(request.params.id) : 0;
    const name = id > 0 ? await deleteFilter(kit.ctx.database.db, ownerOf(current), request.params.handle, id) : null;
    if (name === null) throw new SvcError('PAYLOAD_INVALID', 'You have no such saved filter.');
    flash(reply, kit, `Filter “${name}” deleted.`);
    return reply.redirect(`${CONSOLE_BASE}/forms/${encodeURIComponent(request.params.handle)}`, 303);
  });
}
