/**
 * The period and interval of a report request (issue #35 item 6), from the admin API's query
 * string and the console's alike: `from` and `to` as ISO dates or date-times (`to` exclusive; a
 * bare date means its whole day), by default the last 30 days; `interval` day, week or month (default day). A bare date is read in the report's
 * time zone (the site's): "from 2026-11-01" in Berlin starts at midnight in Berlin.
 */
import { SvcError } from '@svc/core';
import { memoized } from '../security/bounded-memo.js';

export const REPORT_INTERVALS = ['day', 'week', 'month'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

export interface ReportQuery {
  readonly from: Date;
  readonly to: Date;
  readonly interval: ReportInterval;
}

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/** The most bars one chart draws: a longer period takes a longer interval. */
export const MAX_BUCKETS = 400;
const APPROX_DAYS: Readonly<Record<ReportInterval, number>> = { day: 1, week: 7, month: 28 };

/** One formatter per zone: building one costs far more than formatting with it (a year's report asks 732 times). */
const wallClock = memoized(64, (zone) => new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }));

/** How far `zone`'s wall clock is ahead of UTC at `at`, in ms. */
function offsetAt(zone: string, at: number): number {
  const parts = Object.fromEntries(wallClock(zone).formatToParts(at).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(parts['year'] ?? 0, (parts['month'] ?? 1) - 1, parts['day'] ?? 1, parts['hour'] ?? 0, parts['minute'] ?? 0, parts['second'] ?? 0);
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant local midnight of `date` (YYYY-MM-DD) is in `zone` (checked twice: a DST change moves the offset). */
export function zonedMidnight(date: string, zone: string): Date {
  const utc = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(utc)) return new Date(NaN);
  const first = utc - offsetAt(zone, utc);
  return new Date(utc - offsetAt(zone, first));
}

function parseInstant(name: string, raw: string, endOfDay: boolean, zone: string): Date {
  const whole = DATE.test(raw);
  const at = whole ? zonedMidnight(raw, zone) : DATE_TIME.test(raw) ? new Date(raw) : null;
  if (!at || Number.isNaN(at.getTime())) throw new SvcError('PAYLOAD_INVALID', `\`${name}\` must be a date (2026-11-27) or a date-time (2026-11-27T10:00:00Z).`);
  return whole && endOfDay ? zonedMidnight(new Date(Date.parse(`${raw}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10), zone) : at;
}

export function parseReportQuery(raw: Readonly<Record<string, unknown>>, now: Date, zone: string): ReportQuery {
  const unknown = Object.keys(raw).find((name) => name !== 'from' && name !== 'to' && name !== 'interval');
  if (unknown !== undefined) throw new SvcError('PAYLOAD_INVALID', `Unknown parameter \`${unknown.slice(0, 40)}\`: use from, to and interval.`);
  for (const name of ['from', 'to', 'interval'] as const) {
    const value = raw[name];
    if (value !== undefined && (typeof value !== 'string' || value.length > 64)) throw new SvcError('PAYLOAD_INVALID', `\`${name}\` must be given once, as a short string.`);
  }
  const text = (name: string) => (typeof raw[name] === 'string' && raw[name] !== '' ? (raw[name] as string) : null);
  const intervalText = text('interval') ?? 'day';
  if (!(REPORT_INTERVALS as readonly string[]).includes(intervalText)) throw new SvcError('PAYLOAD_INVALID', '`interval` must be day, week or month.');
  const interval = intervalText as ReportInterval;
  const toText = text('to');
  const fromText = text('from');
  const to = toText ? parseInstant('to', toText, true, zone) : now;
  const from = fromText ? parseInstant('from', fromText, false, zone) : new Date(to.getTime() - 30 * DAY_MS);
  if (from.getTime() >= to.getTime()) throw new SvcError('PAYLOAD_INVALID', '`from` must be before `to`.');
  if ((to.getTime() - from.getTime()) / DAY_MS / APPROX_DAYS[interval] > MAX_BUCKETS) {
    throw new SvcError('PAYLOAD_INVALID', `That period has more than ${MAX_BUCKETS} ${interval}s: choose a shorter period or a longer interval.`);
  }
  return { from, to, interval };
}
