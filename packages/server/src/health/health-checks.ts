/**
 * Readiness (issue #16): whether this instance can serve forms now: the database answers and is
 * migrated to this build, forms are loaded, Redis answers when it is configured, and the file
 * store takes a write. Each check is cheap; the store's write is cached for 30 seconds so a
 * load balancer probing every second does not write a file every second.
 */
import { sql } from 'kysely';
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { DatabaseHandle } from '../storage/database-factory.js';
import { pendingMigrations } from '../storage/migration-runner.js';
import type { FormRegistry } from '../forms/form-registry.js';
import type { FileStore } from '../files/file-store.js';
import type { RateLimitStore } from '../security/rate-limit-store.js';

export interface ReadinessDeps {
  readonly database: DatabaseHandle;
  readonly forms: FormRegistry;
  readonly store: FileStore;
  /** The Redis-backed limiter store, or null when no Redis is configured. */
  readonly redis: RateLimitStore | null;
  readonly now: () => Date;
}

export type CheckResult = { readonly ok: true; readonly detail?: string } | { readonly ok: false; readonly problem: string };

export interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, CheckResult>>;
}

const STORE_CACHE_MS = 30_000;
const CHECK_TIMEOUT_MS = 2_000;

/** A check that fails instead of hanging: a probe must answer even when a dependency does not. */
async function bounded(check: () => Promise<CheckResult>): Promise<CheckResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, problem: `no answer within ${CHECK_TIMEOUT_MS} ms` }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().catch((error: unknown) => ({ ok: false as const, problem: error instanceof Error ? error.message : 'failed' })), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function createReadiness(deps: ReadinessDeps): () => Promise<Readiness> {
  let storeChecked: { at: number; result: CheckResult } | null = null;
  const database = async (): Promise<CheckResult> => {
    await sql`select 1`.execute(deps.database.db);
    const pending = await pendingMigrations(deps.database);
    return pending.length === 0 ? { ok: true, detail: deps.database.dialect } : { ok: false, problem: `${pending.length} migration(s) not run: svc migrate` };
  };
  const store = async (): Promise<CheckResult> => {
    const now = deps.now().getTime();
    if (storeChecked && now - storeChecked.at < STORE_CACHE_MS) return storeChecked.result;
    const key = `svc-health/${randomBytes(8).toString('hex')}.txt`;
    const body = Buffer.from('ok');
    await deps.store.put(key, Readable.from([body]), { size: body.length, contentType: 'text/plain' });
    await deps.store.delete(key);
    storeChecked = { at: now, result: { ok: true, detail: deps.store.name } };
    return storeChecked.result;
  };
  return async () => {
    const checks: Record<string, CheckResult> = {
      database: await bounded(database),
      forms: { ok: true, detail: `${deps.forms.list().length} loaded` },
      files: await bounded(store),
    };
    if (deps.redis) checks.redis = deps.redis.healthy() ? { ok: true } : { ok: false, problem: 'not connected' };
    // A failed store write is not cached: the next probe tries again.
    if (!checks.files?.ok) storeChecked = null;
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  };
}
