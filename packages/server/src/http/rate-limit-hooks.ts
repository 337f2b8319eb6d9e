/**
 * Per-client API rate limits on the routes that create or mint things (submit, tokens, GraphQL):
 * 429 RATE_LIMITED with Retry-After over the budget, 503 when the shared store is unreachable
 * (fail closed: an outage must not switch the limits off).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';
import type { RateLimitStore } from '../security/rate-limit-store.js';

export interface RateBudget {
  readonly max: number;
  readonly windowSeconds: number;
}

export type RateLimitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** The guard first (CORS, headless switch), then the budget. */
export function withLimit<T>(guard: T, limit: RateLimitHook | null): (T | RateLimitHook)[] {
  return limit ? [guard, limit] : [guard];
}

export function createRateLimitHook(store: RateLimitStore, group: string, budget: RateBudget, onRefused?: (group: string) => void): RateLimitHook {
  const windowMs = budget.windowSeconds * 1000;
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let window;
    try {
      window = await store.hit(`${group}:${request.ip}`, windowMs);
    } catch (error) {
      request.log.error({ err: error }, 'rate limit store unavailable');
      // Set on the reply too: GraphQL's error handler does not read SvcError headers.
      reply.header('Retry-After', '5');
      throw new SvcError('SERVICE_UNAVAILABLE', 'The service cannot check request limits right now; please retry shortly.', {
        headers: { 'Retry-After': '5' },
      });
    }
    const remaining = Math.max(0, budget.max - window.count);
    reply.header('RateLimit-Limit', String(budget.max)).header('RateLimit-Remaining', String(remaining));
    if (window.count > budget.max) {
      const retryAfter = String(Math.max(1, Math.ceil(window.resetMs / 1000)));
      reply.header('Retry-After', retryAfter);
      onRefused?.(group);
      throw new SvcError('RATE_LIMITED', undefined, { headers: { 'Retry-After': retryAfter } });
    }
  };
}
