/**
 * Dates in the console (issue #35 item 7): shown in the site's time zone with the zone named, so
 * "09:30" is never a guess. The zone is the default site's (`sites[].timezone`), else UTC. Written
 * with Intl.DateTimeFormat: the zone rules are the runtime's, not a table of ours.
 */
import type { AppContext } from '../http/app-context.js';
import { escapeHtml } from '../http/html-page.js';
import { memoized } from '../security/bounded-memo.js';

/** The IANA zone the console shows dates in. */
export function consoleZone(ctx: Pick<AppContext, 'sites'>): string {
  return ctx.sites.defaultSite.timezone ?? 'UTC';
}

// en-CA spells dates as ISO does (2026-11-27), which sorts and reads the same everywhere.
const formatFor = memoized(64, (zone) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }));

/**
 * An ISO instant as `2026-11-27 10:30 GMT+1` in `zone` (the zone's short name as Intl gives it;
 * UTC shows as UTC).
 * @example
 * formatInZone('2026-11-27T09:30:00.000Z', 'Europe/Berlin') // '2026-11-27 10:30 GMT+1'
 */
export function formatInZone(iso: string, zone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const parts = Object.fromEntries(formatFor(zone).formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts['year']}-${parts['month']}-${parts['day']} ${parts['hour']}:${parts['minute']} ${parts['timeZoneName']}`;
}

/** The same as a <time> element: the machine-readable instant, the zone's reading as text. */
export function timeHtml(iso: string, zone: string): string {
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(formatInZone(iso, zone))}</time>`;
}
