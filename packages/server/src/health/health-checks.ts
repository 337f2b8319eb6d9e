/**
 * Readiness (issue #16): whether this instance can serve forms now: the database answers, is
 * migrated to this build and its tables answer, forms are loaded, Redis answers when it is
 * configured, and the file store takes a write. Each check is cheap: the migration list and the
 * store's write are cached for 30 seconds so a load balancer probing every second does not read
 * the list or write a file every second, and the tables cost one statement per group that reads
 * no row (issue #32: a table renamed away left /readyz at 200).
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
const MIGRATIONS_CACHE_MS = 30_000;

/**
 * The tables svc reads and writes, by the feature that owns them; a new table joins its group.
 * One statement per group names every table in it and matches no row, so the database only
 * resolves the names (a missing or renamed table fails it) and the log says which group failed.
 */
export const TABLE_GROUPS: Readonly<Record<string, readonly string[]>> = {
  forms: ['svc_forms', 'svc_fields'],
  submissions: ['svc_submissions', 'svc_drafts', 'svc_idempotency_keys', 'svc_submission_notes'],
  files: ['svc_files'],
  deliveries: ['svc_deliveries', 'svc_delivery_attempts'],
  payments: ['svc_payments', 'svc_payment_checkpoints', 'svc_payment_events'],
  links: ['svc_spent_links', 'svc_classic_flashes', 'svc_classic_sessions', 'svc_audit_log'],
  console: ['svc_console_sessions', 'svc_console_filters'],
  insights: ['svc_insight_steps', 'svc_insight_field_errors', 'svc_insight_counts', 'svc_insight_durations'],
  privacy: ['svc_privacy_index', 'svc_erasures', 'svc_erasure_marks'],
  reports: ['svc_report_counts', 'svc_report_answers', 'svc_report_count_days', 'svc_report_answer_days', 'svc_report_forms'],
};

const GROUP_PROBES = Object.entries(TABLE_GROUPS).map(([group, tables]) => ({
  group,
  // Names from the list above, never from a request.
  statement: sql.raw(tables.map((table) => `select 1 from ${table} where 1 = 0`).join(' union all ')),
}));
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
  // Only a database found migrated is remembered: one that is not is asked again next time.
  let migratedAt: number | null = null;
  const database = async (): Promise<CheckResult> => {
    const now = deps.now().getTime();
    if (migratedAt === null || now - migratedAt >= MIGRATIONS_CACHE_MS) {
      const pending = await pendingMigrations(deps.database);
      if (pending.length > 0) {
        migratedAt = null;
        return { ok: false, problem: `${pending.length} migration(s) not run: svc migrate` };
      }
      migratedAt = now;
    }
    for (const { group, statement } of GROUP_PROBES) {
      try {
        await statement.execute(deps.database.db);
      } catch (error) {
        return { ok: false, problem: `the ${group} tables do not answer: ${error instanceof Error ? error.message : 'failed'}` };
      }
    }
    return { ok: true, detail: deps.database.dialect };
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
