/**
 * What every admin route shares: the onRequest guard, the services built from the app context,
 * the JSON envelope and the caller's base URL for links. Admin routes are for servers and scripts,
 * so they get no CORS headers (a browser on another origin can neither read them nor send the
 * Authorization header, whose preflight finds no route) and need no CSRF token (bearer auth).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { SERVICE_VERSION } from '../version.js';
import { createDownloadLinks } from './download-links.js';
import type { AdminServices } from './admin-service.js';
import { openPoolFor } from '../privacy/privacy-open-pool.js';
import { createErasureLedger } from '../privacy/privacy-ledger.js';
import { createBlindIndex } from '../privacy/privacy-blind-index.js';
import { erasureLedgerPath } from '../privacy/privacy-config.js';

export function createAdminServices(ctx: AppContext): AdminServices {
  return {
    db: ctx.database.db,
    forms: ctx.forms,
    uploads: ctx.uploads,
    statuses: ctx.config.submissions.statuses.map((s) => s.handle),
    links: createDownloadLinks(ctx.config.secret as string, ctx.config.admin.downloadUrlMinutes, ctx.submit.now),
    deliveries: ctx.deliveries,
    sealer: ctx.sealer,
    opening: openPoolFor(ctx.sealer, ctx.config),
    reportCounts: ctx.reportCounts,
    now: ctx.submit.now,
    ledger: createErasureLedger({ db: ctx.database.db, path: erasureLedgerPath(ctx.config), log: ctx.log, dialect: ctx.database.dialect }),
    blindIndex: createBlindIndex(ctx.config.secret as string),
  };
}

/** Request id, the headless master switch (contract §1: every /svc/api/* route), and no caching. */
export function createAdminGuard(headlessEnabled: boolean) {
  return async function adminGuard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.header('X-Request-Id', request.id);
    reply.header('Cache-Control', 'no-store');
    if (!headlessEnabled) throw new SvcError('HEADLESS_DISABLED');
  };
}

export function sendData(reply: FastifyReply, data: unknown, meta: Record<string, unknown> = {}): FastifyReply {
  return reply.type('application/json; charset=utf-8').send({ success: true, data, meta: { pluginVersion: SERVICE_VERSION, ...meta } });
}

/** The origin the caller reached us on (or `server.publicUrl`), for absolute download links. */
/** A Host header that is a host name or address with an optional port, nothing else. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]{1,253})(:\d{1,5})?$/i;

/**
 * The origin for absolute links (signed downloads): `server.publicUrl`, else the request's Host
 * when it is a well-formed host, else none, and links stay relative (found by the fuzz suite).
 */
export function baseUrl(ctx: AppContext, request: FastifyRequest): string {
  const configured = ctx.config.server.publicUrl?.replace(/\/$/, '');
  if (configured) return configured;
  return HOST.test(request.host) ? `${request.protocol}://${request.host}` : '';
}
