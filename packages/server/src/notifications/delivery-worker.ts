/**
 * Drains the outbox in the server process: claims due jobs under a lease, delivers them a few at
 * a time, and records each attempt. Failures are retried with exponential backoff and full
 * jitter; after `maxAttempts` (or a permanent error) the job is dead-lettered, kept with its log.
 */
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../storage/database-schema.js';
import type { DialectName } from '../storage/database-factory.js';
import { PermanentDeliveryError, type DeliveryJob } from './delivery-model.js';
import type { DeliveryHandler } from './delivery-handlers.js';
import { claimDue, recordAttempts, releaseClaims, type AttemptOutcome, type UnreadableJob } from './outbox-repository.js';
import type { ValueSealer } from '../privacy/privacy-sealer.js';

export interface WorkerOptions {
  readonly pollMs: number;
  readonly concurrency: number;
  readonly maxAttempts: number;
  readonly backoffSeconds: number;
  /** Longer than any one delivery can take (the outbound timeout), so a lease outlives its work. */
  readonly leaseMs: number;
}

export interface DeliveryWorker {
  start(): void;
  /** Deliver what is due now (a submission was just stored). */
  poke(): void;
  /** One pass over everything due; returns how many jobs were attempted. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

const MAX_DELAY_MS = 6 * 3_600_000;

export function retryDelayMs(attempt: number, backoffSeconds: number, random = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, backoffSeconds * 1000 * 2 ** Math.max(0, attempt - 1));
  // Full jitter over the upper half: retries of many failed jobs spread out instead of stampeding.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export function createDeliveryWorker(deps: {
  db: Kysely<Database>;
  dialect: DialectName;
  handle: DeliveryHandler;
  options: WorkerOptions;
  /** Opens the sealed payloads of claimed jobs (issue #37 item 1). */
  sealer: Pick<ValueSealer, 'openJson'>;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Hears every attempt's kind and outcome (metrics, issue #16). */
  observe?: (kind: string, outcome: 'delivered' | 'retry' | 'dead') => void;
}): DeliveryWorker {
  const { db, options, log } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = true;
  /** Set by stop() only: a drain() asked for by hand (tests, the CLI) runs whether started or not. */
  let stopping = false;

  async function attempt(job: DeliveryJob): Promise<AttemptOutcome> {
    const started = Date.now();
    let outcome: { ok: boolean; detail: string; permanent: boolean };
    try {
      outcome = { ok: true, detail: (await deps.handle(job)).slice(0, 500), permanent: false };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      outcome = { ok: false, detail: message.slice(0, 500), permanent: error instanceof PermanentDeliveryError };
    }
    const now = deps.now();
    const dead = !outcome.ok && (outcome.permanent || job.attempts >= options.maxAttempts);
    const next = outcome.ok
      ? { status: 'delivered' as const, at: null }
      : dead
        ? { status: 'dead' as const, at: null }
        : { status: 'pending' as const, at: new Date(now.getTime() + retryDelayMs(job.attempts, options.backoffSeconds)).toISOString() };
    deps.observe?.(job.target.kind, outcome.ok ? 'delivered' : dead ? 'dead' : 'retry');
    if (dead) log.warn({ delivery: job.uid, kind: job.target.kind, attempts: job.attempts, error: outcome.detail }, 'delivery dead-lettered');
    else if (!outcome.ok) log.info({ delivery: job.uid, kind: job.target.kind, attempts: job.attempts, error: outcome.detail }, 'delivery failed; will retry');
    return { ok: outcome.ok, detail: outcome.detail, durationMs: Date.now() - started, next };
  }

  /** A payload that does not open (its key destroyed by an erasure, or altered) is dead at once. */
  function unreadableOutcome(job: UnreadableJob): AttemptOutcome {
    const detail = 'the payload cannot be opened: its data key is gone or it was altered';
    deps.observe?.(job.kind, 'dead');
    log.warn({ delivery: job.uid, kind: job.kind, attempts: job.attempts, error: detail }, 'delivery dead-lettered');
    return { ok: false, detail, durationMs: 0, next: { status: 'dead', at: null } };
  }

  /**
   * Delivers a claimed batch `concurrency` jobs at a time; every outcome comes back, none throws.
   * Once the worker is stopping no new job is started: those left are handed back (`unstarted`).
   */
  async function deliverBatch(jobs: readonly DeliveryJob[]) {
    const results: { job: DeliveryJob; outcome: AttemptOutcome }[] = [];
    let next = 0;
    const lane = async () => {
      while (next < jobs.length && !stopping) {
        const job = jobs[next++] as DeliveryJob;
        results.push({ job, outcome: await attempt(job) });
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, jobs.length) }, lane));
    return { results, unstarted: jobs.slice(next) };
  }

  async function drainAll(): Promise<number> {
    let total = 0;
    // Claims are batches of several rounds of concurrency, so claims and records are few writes.
    const batchSize = options.concurrency * 8;
    for (;;) {
      const now = deps.now();
      // A stopping worker claims nothing more: its process is on its way out.
      if (stopping) return total;
      const claimed = await claimDue(db, deps.dialect, batchSize, now.toISOString(), new Date(now.getTime() + options.leaseMs).toISOString(), deps.sealer);
      const { jobs, unreadable } = claimed;
      if (jobs.length === 0 && unreadable.length === 0) return total;
      const { results, unstarted } = await deliverBatch(jobs);
      const dead = unreadable.map((job) => ({ job, outcome: unreadableOutcome(job) }));
      await recordAttempts(db, [...results, ...dead], deps.now().toISOString());
      await releaseClaims(db, unstarted.map((job) => job.id), deps.now().toISOString());
      total += results.length + dead.length;
      // A fair share of the event loop: requests waiting behind this pass run before the next batch.
      await new Promise<void>((resume) => setImmediate(resume));
    }
  }

  function drain(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = drainAll().finally(() => {
      running = null;
      if (again && !stopped) {
        again = false;
        void drain().catch((error: unknown) => log.error({ err: error }, 'delivery pass failed'));
      }
    });
    return running;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      drain()
        .catch((error: unknown) => log.error({ err: error }, 'delivery pass failed; will retry'))
        .finally(schedule);
    }, options.pollMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      stopping = false;
      schedule();
      // Jobs left by a previous run (a crash after commit) go out now, not after the first poll.
      this.poke();
    },
    poke() {
      if (stopped) return;
      void drain().catch((error: unknown) => log.error({ err: error }, 'delivery pass failed; will retry'));
    },
    drain,
    async stop() {
      stopped = true;
      stopping = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
