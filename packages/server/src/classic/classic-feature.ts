/**
 * The classic room (issue #14, contract §10): the form-properties JSON and the classic form post,
 * for sites that render forms on their own server and post them as plain HTML. Its services for
 * the composition root and its one plugin entry.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config-schema.js';
import type { Database } from '../storage/database-schema.js';
import type { AppContext } from '../http/app-context.js';
import type { PaymentContext } from '../payments/payment-context.js';
import { createClassicCarrier } from './classic-carrier.js';
import { createClassicFlashes } from './classic-flash.js';
import { createClassicSeals } from './classic-payload.js';
import { classicRoutes } from './classic-routes.js';
import type { ClassicFeature } from './classic-types.js';

export type { ClassicFeature } from './classic-types.js';

export function createClassicServices(config: Config, deps: { db: Kysely<Database>; secret: string; now: () => Date }): ClassicFeature {
  const payloadTtlMs = config.classic.payloadTtlHours * 3_600_000;
  const seals = createClassicSeals(deps.secret, { kid: config.classic.kid, acceptedKids: config.classic.acceptedKids, ttlMs: payloadTtlMs });
  const flashes = createClassicFlashes(deps.db, deps.secret, config.classic.flashTtlMinutes * 60_000, deps.now);
  const carrier = createClassicCarrier(config.classic.sessionStorage, { db: deps.db, secret: deps.secret, seals, ttlMs: payloadTtlMs });
  return {
    seals,
    flashes,
    carrier,
    payloadTtlMs,
    purge: async (now) => (await flashes.purge()) + (await carrier.purge(now)),
  };
}

/** `payments`: a classic post checkpoints a payment field's intent as the REST route does (contract §8). */
export async function registerClassic(app: FastifyInstance, ctx: AppContext, classic: ClassicFeature, payments: PaymentContext): Promise<void> {
  if (!ctx.config.classic.enabled) return;
  await classicRoutes(app, ctx, classic, payments);
}
