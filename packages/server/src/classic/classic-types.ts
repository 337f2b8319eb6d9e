/**
 * The classic room's services as its routes receive them, below both classic-feature.ts (which
 * makes them) and classic-routes.ts (which uses them), so neither imports the other in a circle
 * (issue #31 item 15).
 */
import type { ClassicCarrier } from './classic-carrier.js';
import type { ClassicFlashes } from './classic-flash.js';
import type { ClassicSeals } from './classic-payload.js';

export interface ClassicFeature {
  readonly seals: ClassicSeals;
  readonly flashes: ClassicFlashes;
  readonly carrier: ClassicCarrier;
  readonly payloadTtlMs: number;
  /** Drops flashes nobody came back for and expired stored sessions (the hourly purge); how many. */
  purge(now: Date): Promise<number>;
}
