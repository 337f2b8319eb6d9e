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
import { createClassicCarrier, type ClassicCarrier } from './classic-carrier.js';
import { createClassicFlashes, type ClassicFlashes } from './classic-flash.js';
import { createClassicSeals, type ClassicSeals } from './classic-payload.js';
import { classicRoutes } from './classic-routes.js';

export interface ClassicFeature {
  readonly seals: ClassicSeals;
  readonly flashes: ClassicFlashes;
  readonly carrier: ClassicCarrier;
  readonly payloadTtlMs: number;
}

export function createClassicServices(config: Config, deps: { db: Kysely<Database>; secret: string; now: () => Date }): ClassicFeature {
  const payloadTtlMs = config.classic.payloadTtlHours * 3_600_000;
  const seals = createClassicSeals(deps.secret, { kid: config.classic.kid, acceptedKids: config.classic.acceptedKids, ttlMs: payloadTtlMs });
  return {
    seals,
    flashes: createClassicFlashes(deps.db, deps.secret, config.classic.flashTtlMinutes * 60_000, deps.now),
    carrier: createClassicCarrier(config.classic.sessionStorage, { db: deps.db, secret: deps.secret, seals, ttlMs: payloadTtlMs }),
    payloadTtlMs,
  };
}

export async function registerClassic(app: FastifyInstance, ctx: AppContext): Promise<void> {
  if (!ctx.config.classic.enabled) return;
  await classicRoutes(app, ctx);
}
