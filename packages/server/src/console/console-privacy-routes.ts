/**
 * The console's privacy requests (issue #37): /svc/console/privacy to find, export and erase a
 * person's data, for accounts with the `privacy` scope (and `write` to erase). Every step is a
 * POST with the session's CSRF token from this console's own pages; the work is the privacy
 * room's, reached through the app it registered on, so the page and the admin API cannot differ.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';
import { safeEqual } from '../security/token-crypto.js';
import { privacyOf, type PrivacyFeature } from '../privacy/privacy-feature.js';
import { findSubject, parseSubjectRequest } from '../privacy/privacy-subjects.js';
import { eraseSubject } from '../privacy/privacy-erasure.js';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, type ConsoleKit, type Entries, type SignedIn } from './console-kit.js';
import { renderConfirmErase, renderFound, renderPrivacy, renderReceipt, type PrivacyAsked } from './console-privacy-pages.js';

export async function consolePrivacyRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { services, signedIn, notFound } = kit;

  const refused = (reply: FastifyReply, current: SignedIn) => notFound(reply, 'Privacy requests need the privacy scope.', current.viewer);

  /** A privacy step: same origin, signed in, the session's CSRF token, the privacy scope. */
  const step = async (request: FastifyRequest): Promise<{ current: SignedIn; privacy: PrivacyFeature; asked: PrivacyAsked; body: Entries }> => {
    kit.assertSameOrigin(request);
    const current = await signedIn(request);
    if (!current) throw new SvcError('AUTH_REQUIRED', 'Sign in to the console again.');
    const body = (request.body ?? {}) as Entries;
    if (typeof body['csrf'] !== 'string' || !safeEqual(body['csrf'], current.viewer.csrf)) throw new SvcError('CSRF_INVALID');
    const privacy = privacyOf(scope);
    if (!privacy || !current.principal.canPrivacy) throw new SvcError('ADMIN_FORBIDDEN', 'Privacy requests need the privacy scope.');
    const kind = body['kind'] === 'identifier' ? 'identifier' : 'email';
    return { current, privacy, asked: { kind, value: typeof body['value'] === 'string' ? body['value'] : '' }, body };
  };

  scope.get(`${CONSOLE_BASE}/privacy`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    if (!current.principal.canPrivacy) return refused(reply, current);
    return pageHeaders(reply).send(renderPrivacy(current.viewer));
  });

  scope.post(`${CONSOLE_BASE}/privacy/find`, async (request, reply) => {
    const { current, privacy, asked } = await step(request);
    let subject;
    try {
      subject = parseSubjectRequest({ [asked.kind]: asked.value }, privacy.index).subject;
    } catch (error) {
      if (error instanceof SvcError) return pageHeaders(reply.code(400)).send(renderPrivacy(current.viewer, error.message));
      throw error;
    }
    const found = await findSubject(services.db, current.principal, subject);
    return pageHeaders(reply).send(renderFound(current.viewer, asked, found, current.principal.canWrite));
  });

  scope.post(`${CONSOLE_BASE}/privacy/export`, async (request, reply) => {
    const { current, privacy, asked } = await step(request);
    const { subject } = parseSubjectRequest({ [asked.kind]: asked.value }, privacy.index);
    // The zip comes through the same short-lived signed link the admin API hands out.
    const link = privacy.links.create({ subject, account: { kind: current.session.kind, name: current.session.name } });
    return reply.redirect(link.path, 303);
  });

  scope.post(`${CONSOLE_BASE}/privacy/erase`, async (request, reply) => {
    const { current, privacy, asked, body } = await step(request);
    if (!current.principal.canWrite) throw new SvcError('ADMIN_FORBIDDEN', 'Erasing needs the write scope.');
    const { subject } = parseSubjectRequest({ [asked.kind]: asked.value }, privacy.index);
    if (body['confirm'] !== 'yes') {
      const found = await findSubject(services.db, current.principal, subject);
      return pageHeaders(reply).send(renderConfirmErase(current.viewer, asked, found));
    }
    const by = { actor: `${current.session.kind}:${current.session.name}`, ip: request.ip };
    const signed = await eraseSubject({ ...services, signer: privacy.signer }, current.principal, subject, by);
    return pageHeaders(reply).send(renderReceipt(current.viewer, signed));
  });
}
