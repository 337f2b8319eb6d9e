/**
 * The period and site of an insights request (issue #38), from the admin API's query string, the
 * console's and GraphQL's arguments alike: `from` and `to` as ISO dates or date-times (`to`
 * exclusive; a bare date means its whole day), by default the last 30 days; `site` a configured
 * site's handle, all sites when absent.
 */
import { SvcError } from '@svc/core';
import type { SiteRegistry } from '../sites/site-registry.js';
import type { ReportQuery } from './insights-report.js';

const DAY_MS = 86_400_000;
/** The longest period one report covers: its sums stay small whatever the traffic. */
const MAX_DAYS = 3660;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function parseInstant(name: string, raw: string, endOfDay: boolean): Date {
  const whole = DATE.test(raw);
  const at = whole || DATE_TIME.test(raw) ? new Date(whole ? `${raw}T00:00:00Z` : raw) : null;
  if (!at || Number.isNaN(at.getTime())) {
    throw new SvcError('PAYLOAD_INVALID', `\`${name}\` must be a date (2026-11-27) or a date-time (2026-11-27T10:00:00Z).`);
  }
  return whole && endOfDay ? new Date(at.getTime() + DAY_MS) : at;
}

export interface RawInsightsQuery {
  readonly from?: unknown;
  readonly to?: unknown;
  readonly site?: unknown;
}

export function parseInsightsQuery(raw: RawInsightsQuery, sites: SiteRegistry, now: Date): ReportQuery {
  const unknown = Object.keys(raw).find((name) => name !== 'from' && name !== 'to' && name !== 'site');
  if (unknown !== undefined) throw new SvcError('PAYLOAD_INVALID', `Unknown parameter \`${unknown.slice(0, 40)}\`: use from, to and site.`);
  for (const name of ['from', 'to', 'site'] as const) {
    const value = raw[name];
    if (value !== undefined && (typeof value !== 'string' || value.length > 64)) throw new SvcError('PAYLOAD_INVALID', `\`${name}\` must be one short string.`);
  }
  const to = typeof raw.to === 'string' && raw.to !== '' ? parseInstant('to', raw.to, true) : now;
  const from = typeof raw.from === 'string' && raw.from !== '' ? parseInstant('from', raw.from, false) : new Date(to.getTime() - 30 * DAY_MS);
  if (from.getTime() >= to.getTime()) throw new SvcError('PAYLOAD_INVALID', '`from` must be before `to`.');
  if (to.getTime() - from.getTime() > MAX_DAYS * DAY_MS) throw new SvcError('PAYLOAD_INVALID', `A period is at most ${MAX_DAYS} days.`);
  const site = typeof raw.site === 'string' && raw.site !== '' ? sites.resolve(raw.site).handle : null;
  return { from, to, site };
}
