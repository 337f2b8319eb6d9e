/**
 * Latency at a fixed offered rate, as users feel it (issue #17): requests leave on an even
 * schedule, one every 1/rate seconds, whether or not earlier ones have been answered (an open
 * loop), and each latency is counted from the moment its request was due, so a stall shows in
 * every request it delayed (no coordinated omission).
 *
 * autocannon's `overallRate` is not this: each connection sends its whole per-second budget at
 * the start of every second and then waits, so 100/s over 50 connections arrives as a burst of
 * 100 each second and p50 measured the queue that burst made.
 */
import { WirePool } from './wire-client.js';
import type autocannon from 'autocannon';

export interface PacedResult {
  readonly sent: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
}

/** Due requests are sent from a 1 ms tick: even pacing without a timer per request. */
const TICK_MS = 1;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export async function pacedLoad(options: autocannon.Options, rate: number, seconds: number): Promise<PacedResult> {
  const url = new URL(options.url);
  const pool = new WirePool(url.hostname, Number(url.port));
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body ? Buffer.from(options.body as Buffer) : undefined;
  const headers = { ...(options.headers as Record<string, string> | undefined) };
  const path = `${url.pathname}${url.search}`;
  const method = options.method ?? 'GET';
  const latencies: number[] = [];
  let errors = 0;
  const total = Math.round(rate * seconds);
  const intervalMs = 1000 / rate;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];

  // A scenario's per-request setup (a fresh upload token each time) applies here as in autocannon.
  const setup = options.requests?.[0]?.setupRequest;
  // Encoded once when every request is the same, so the client's cost per request stays small.
  const same = typeof setup === 'function' ? null : pool.encode({ method, path, headers, body });
  const bytesFor = (): Buffer => {
    if (same) return same;
    const made = (setup as (request: unknown, context: unknown) => { headers?: Record<string, string> } | undefined)({ method, path, headers: { ...headers } }, {});
    return pool.encode({ method, path, headers: { ...headers, ...made?.headers }, body });
  };

  const fire = (dueAt: number) =>
    pool.send(bytesFor()).then(
      (status) => {
        if (status >= 400) errors += 1;
        latencies.push(performance.now() - dueAt);
      },
      () => {
        errors += 1;
      },
    );

  let sent = 0;
  await new Promise<void>((done) => {
    const tick = setInterval(() => {
      const now = performance.now();
      while (sent < total && started + sent * intervalMs <= now) {
        inFlight.push(fire(started + sent * intervalMs));
        sent += 1;
      }
      if (sent >= total) {
        clearInterval(tick);
        done();
      }
    }, TICK_MS);
  });
  await Promise.all(inFlight);
  pool.close();
  latencies.sort((a, b) => a - b);
  return { sent, errors, p50: Math.round(percentile(latencies, 50) * 10) / 10, p99: Math.round(percentile(latencies, 99) * 10) / 10 };
}
