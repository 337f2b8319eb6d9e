/**
 * What an operator scrapes (issue #16): request durations by route and status, submissions by
 * form and outcome, the outbox's depth and oldest job, delivery attempts, rate-limit refusals,
 * upload bytes, drafts, and the process's own figures, in one prom-client registry per app (so
 * two apps in one process, as in tests, never share counts). Values that live in the database are
 * read when scraped, never kept in step by hand.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sql, type Kysely } from 'kysely';
import type { Form } from '@svc/core';
import type { Database } from '../storage/database-schema.js';
import type { SubmitResult } from '../submissions/submit-response.js';

export type SubmissionOutcome = 'submitted' | 'spam' | 'invalid' | 'limited' | 'step' | 'draft' | 'refused';

export interface Metrics {
  readonly registry: Registry;
  request(route: string, method: string, status: number, seconds: number): void;
  submission(form: Form, result: SubmitResult): void;
  delivery(kind: string, outcome: 'delivered' | 'retry' | 'dead'): void;
  rateLimited(group: string): void;
  uploaded(bytes: number): void;
}

/** The outcome a submit answer stands for; spam is told apart although the client is not told. */
export function outcomeOf(result: SubmitResult): SubmissionOutcome {
  const { status } = result.body;
  if (status === 'submitted') return result.spam ? 'spam' : 'submitted';
  if (status === 'validation_failed') return 'invalid';
  if (status === 'limit_reached') return 'limited';
  if (status === 'spam_rejected') return 'spam';
  if (status === 'draft_saved') return 'draft';
  if (status === 'page_valid' || status === 'validated') return 'step';
  return 'refused';
}

export function createMetrics(db: Kysely<Database>, now: () => Date): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'svc_' });
  const duration = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern, method and status.',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const submissions = new Counter({ name: 'svc_submissions_total', help: 'Submit answers by form and outcome.', labelNames: ['form', 'outcome'] as const, registers: [registry] });
  const deliveries = new Counter({ name: 'svc_delivery_attempts_total', help: 'Delivery attempts by kind and outcome.', labelNames: ['kind', 'outcome'] as const, registers: [registry] });
  const limited = new Counter({ name: 'svc_rate_limited_total', help: 'Requests refused by a rate limit, by route group.', labelNames: ['group'] as const, registers: [registry] });
  const uploadBytes = new Counter({ name: 'svc_upload_bytes_total', help: 'Bytes of files stored.', registers: [registry] });
  new Gauge({
    name: 'svc_outbox_pending',
    help: 'Delivery jobs waiting to be delivered.',
    registers: [registry],
    async collect() {
      const row = await db.selectFrom('svc_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirst();
      this.set(Number(row?.n ?? 0));
    },
  });
  new Gauge({
    name: 'svc_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest delivery job still pending (0 when none).',
    registers: [registry],
    async collect() {
      const row = await db.selectFrom('svc_deliveries').select(sql<string | null>`min(created_at)`.as('oldest')).where('status', '=', 'pending').executeTakeFirst();
      const oldest = row?.oldest ? Date.parse(row.oldest) : null;
      this.set(oldest === null ? 0 : Math.max(0, (now().getTime() - oldest) / 1000));
    },
  });
  new Gauge({
    name: 'svc_drafts',
    help: 'Saved drafts that can still be resumed.',
    registers: [registry],
    async collect() {
      const row = await db.selectFrom('svc_drafts').select((eb) => eb.fn.countAll<number>().as('n')).where('expires_at', '>', now().toISOString()).executeTakeFirst();
      this.set(Number(row?.n ?? 0));
    },
  });
  return {
    registry,
    request: (route, method, status, seconds) => duration.observe({ route, method, status_code: String(status) }, seconds),
    submission: (form, result) => submissions.inc({ form: form.handle, outcome: outcomeOf(result) }),
    delivery: (kind, outcome) => deliveries.inc({ kind, outcome }),
    rateLimited: (group) => limited.inc({ group }),
    uploaded: (bytes) => uploadBytes.inc(bytes),
  };
}
