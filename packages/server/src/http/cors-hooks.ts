/**
 * CORS for the headless routes (contract §6). Each route declares which allow-list applies
 * (`config.cors`): the form's (global ∪ form), the union of all lists (`/svc/tokens`), or the
 * global list. Allowed origins get credentialed CORS headers; cross-origin state-changing requests
 * and preflights from other origins get 403 ORIGIN_NOT_ALLOWED; GETs simply get no CORS headers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';
import { createOriginPolicy, type OriginPolicy } from '../security/origin-policy.js';
import type { Config } from '../config/config-schema.js';

export type CorsScope = 'form' | 'profile' | 'all' | 'global';

declare module 'fastify' {
  interface FastifyContextConfig {
    cors?: CorsScope;
  }
}

// Exactly the contract §6 set, spelt as there. FF-Stripe-Integration is the header the official
// Stripe extension sends to the intent routes (§12): without it every cross-origin payment fails
// its preflight.
const ALLOWED_HEADERS = ['Content-Type', 'X-CSRF-Token', 'X-Svc-Upload-Token', 'Idempotency-Key', 'Authorization', 'Cache-Control', 'FF-Stripe-Integration'];
const ALLOWED_HEADER_SET = new Set(ALLOWED_HEADERS.map((h) => h.toLowerCase()));

export interface CorsPolicies {
  /** The allow-list of the request's route, from its `config.cors` scope. */
  forRequest(request: FastifyRequest): OriginPolicy;
  /** A form's allow-list (global ∪ the form's), for routes that learn the form from the body. */
  forForm(handle: string): OriginPolicy;
  isSameOrigin(request: FastifyRequest, origin: string): boolean;
}

export function createCorsPolicies(config: Config): CorsPolicies {
  const global = config.headless.allowedOrigins;
  const perForm = new Map(
    Object.entries(config.headless.forms).map(([handle, form]) => [handle, createOriginPolicy([...global, ...form.allowedOrigins])]),
  );
  const globalPolicy = createOriginPolicy(global);
  const profileLists = Object.values(config.headless.profiles).flatMap((p) => p.allowedOrigins);
  const perProfile = new Map(Object.entries(config.headless.profiles).map(([name, p]) => [name, createOriginPolicy([...global, ...p.allowedOrigins])]));
  const union = createOriginPolicy([...global, ...Object.values(config.headless.forms).flatMap((f) => f.allowedOrigins), ...profileLists]);
  const publicOrigin = config.server.publicUrl ? new URL(config.server.publicUrl).origin.toLowerCase() : null;
  return {
    forRequest(request) {
      const scope = request.routeOptions.config.cors ?? 'global';
      if (scope === 'all') return union;
      if (scope === 'form') {
        const handle = (request.params as { handle?: string }).handle ?? '';
        return perForm.get(handle) ?? globalPolicy;
      }
      // issue #13: the global list plus the profile's own.
      if (scope === 'profile') return perProfile.get((request.params as { profile?: string }).profile ?? '') ?? globalPolicy;
      return globalPolicy;
    },
    forForm(handle) {
      return perForm.get(handle) ?? globalPolicy;
    },
    isSameOrigin(request, origin) {
      const host = request.host.replace(request.protocol === 'https' ? /:443$/ : /:80$/, '');
      const self = publicOrigin ?? `${request.protocol}://${host}`.toLowerCase();
      return origin.toLowerCase() === self;
    },
  };
}

function applyAllowHeaders(reply: FastifyReply, origin: string, verdict: 'credentialed' | 'anonymous'): void {
  if (verdict === 'credentialed') {
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Access-Control-Allow-Credentials', 'true');
  } else {
    reply.header('Access-Control-Allow-Origin', '*');
  }
}

/**
 * The one onRequest hook of every headless route, attached per route rather than globally so
 * other routes pay nothing and no per-request route lookup is needed: request id, the headless
 * master switch (interface.md §7), then CORS.
 */
export function createHeadlessGuard(policies: CorsPolicies, headlessEnabled: boolean) {
  /** Throws what the request is refused with; sets the answer's request id and CORS headers. */
  function check(request: FastifyRequest, reply: FastifyReply): void {
    reply.header('X-Request-Id', request.id);
    if (!headlessEnabled) throw new SvcError('HEADLESS_DISABLED');
    reply.header('Vary', 'Origin');
    const origin = request.headers.origin;
    if (!origin || policies.isSameOrigin(request, origin)) return;
    const verdict = policies.forRequest(request).check(origin);
    if (verdict) {
      applyAllowHeaders(reply, origin, verdict);
      reply.header('Access-Control-Expose-Headers', 'ETag, Retry-After, X-Request-Id');
      return;
    }
    const safe = request.method === 'GET' || request.method === 'HEAD';
    if (!safe) throw new SvcError('ORIGIN_NOT_ALLOWED');
  }
  // A callback hook, not an async one: nothing here waits, and an async hook costs every request
  // of every headless route a promise and a microtask turn (issue #17). Routes that read no body
  // (the GET manifests) call `check` first in their handler instead: a route without onRequest
  // hooks skips fastify's hook runner altogether, 8% of a manifest's CPU.
  function headlessGuard(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    try {
      check(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  }
  return Object.assign(headlessGuard, { check });
}
export type HeadlessGuard = ReturnType<typeof createHeadlessGuard>;

/** The OPTIONS handler for a CORS route: 204 for an allowed preflight, 403 otherwise. */
export function preflightHandler(policies: CorsPolicies) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    reply.header('Vary', 'Origin');
    if (!origin || !request.headers['access-control-request-method']) {
      return reply.code(204).header('Allow', 'GET, POST, OPTIONS').send();
    }
    const verdict = policies.isSameOrigin(request, origin) ? 'credentialed' : policies.forRequest(request).check(origin);
    if (!verdict) throw new SvcError('ORIGIN_NOT_ALLOWED');
    applyAllowHeaders(reply, origin, verdict);
    const requested = String(request.headers['access-control-request-headers'] ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '');
    const granted = requested.filter((h) => ALLOWED_HEADER_SET.has(h.toLowerCase()));
    return reply
      .code(204)
      .header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS')
      .header('Access-Control-Allow-Headers', (granted.length > 0 ? granted : ALLOWED_HEADERS).join(', '))
      .header('Access-Control-Max-Age', '600')
      .send();
  };
}
