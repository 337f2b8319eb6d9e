/**
 * /svc/console/forms/{handle}/share (issue #36 item 3): for anyone who may read the form, its
 * hosted page's link, a QR code of it (also as an SVG download) and the embed snippets.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { renderSVG } from 'uqr';
import type { Form } from '@svc/core';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, type ConsoleKit } from './console-kit.js';
import { renderShare, type SharePage } from './console-share-pages.js';
import { hostedShare } from '../hosted/hosted-share.js';

export async function consoleShareRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { ctx, services, signedIn, notFound } = kit;

  /** svc's address as links should carry it: server.publicUrl, else the one this request came to. */
  const originOf = (request: FastifyRequest) => ctx.config.server.publicUrl?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;

  const shareOf = (form: Form, request: FastifyRequest): SharePage => {
    const share = hostedShare(ctx, form, originOf(request));
    // Black on white with a quiet zone: what phone cameras read best.
    const qrSvg = share.url ? renderSVG(share.url, { border: 2 }) : null;
    return { handle: form.handle, name: form.name, url: share.url, reason: share.reason, qrSvg, snippets: share.snippets };
  };
  /** The code on the page at a size a phone reads from a screen; the download keeps its viewBox only. */
  const shownSvg = (page: SharePage): SharePage => ({ ...page, qrSvg: page.qrSvg?.replace('<svg ', '<svg width="240" height="240" ') ?? null });

  scope.get<{ Params: { handle: string } }>(`${CONSOLE_BASE}/forms/:handle/share`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const form = current.principal.canRead(request.params.handle) ? services.forms.get(request.params.handle) : undefined;
    if (!form) return notFound(reply, 'This form does not exist or you may not see it.', current.viewer);
    return pageHeaders(reply).send(renderShare(shownSvg(shareOf(form, request)), current.viewer));
  });

  scope.get<{ Params: { handle: string } }>(`${CONSOLE_BASE}/forms/:handle/share/qr.svg`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const form = current.principal.canRead(request.params.handle) ? services.forms.get(request.params.handle) : undefined;
    const svg = form ? shareOf(form, request).qrSvg : null;
    if (!form || svg === null) return notFound(reply, 'This form has no hosted page.', current.viewer);
    return reply
      .header('Cache-Control', 'no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'")
      .type('image/svg+xml; charset=utf-8')
      .send(svg);
  });
}
