/**
 * What the spam folder counts (issue #35 item 4): spam per UTC day and per reason the pipeline
 * recorded, over the forms a viewer may read. The reasons are stored as a JSON array of text, so
 * the database groups by day and by that array as it is stored (a handful of distinct arrays),
 * and the arrays are split here: the same SQL on SQLite and PostgreSQL, no JSON functions.
 * The counts read no submitted value; the newest spam's titles are sealed at rest (issue #37) and
 * opened as they are read.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { ValueSealer } from '../privacy/privacy-sealer.js';
import { openSubmissionColumns } from '../privacy/privacy-sealer.js';

export interface SpamDay {
  readonly day: string;
  /** Spam that day by reason; a submission with two reasons counts under both. */
  readonly reasons: Readonly<Record<string, number>>;
  /** Spam submissions that day. */
  readonly total: number;
}

/** Spam per day for `days` days ending today (oldest first), with the reasons seen in them. */
export async function spamByReason(db: Kysely<Database>, formIds: readonly number[], today: Date, days = 30): Promise<{ days: SpamDay[]; reasons: string[] }> {
  const start = Date.parse(today.toISOString().slice(0, 10)) - (days - 1) * 86_400_000;
  const labels = Array.from({ length: days }, (_v, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
  const byDay = new Map(labels.map((day) => [day, { day, reasons: {} as Record<string, number>, total: 0 }]));
  if (formIds.length > 0) {
    // created_at is ISO text on both dialects: its first ten characters are the UTC day.
    const rows = await db
      .selectFrom('svc_submissions')
      .select([sql<string>`substr(created_at, 1, 10)`.as('day'), 'spam_reasons', (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('form_id', 'in', formIds)
      .where('is_spam', '=', 1)
      .where('created_at', '>=', `${labels[0]}T00:00:00.000Z`)
      .groupBy([sql`substr(created_at, 1, 10)`, 'spam_reasons'])
      .execute();
    for (const row of rows) {
      const entry = byDay.get(row.day);
      if (!entry) continue;
      const n = Number(row.n);
      entry.total += n;
      const reasons = parseReasons(row.spam_reasons);
      for (const reason of reasons.length > 0 ? reasons : ['unknown']) entry.reasons[reason] = (entry.reasons[reason] ?? 0) + n;
    }
  }
  const list = [...byDay.values()];
  const reasons = [...new Set(list.flatMap((d) => Object.keys(d.reasons)))].sort();
  return { days: list, reasons };
}

function parseReasons(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

/** The newest spam across forms (the folder across forms shows a page of it, newest first). */
export async function newestSpam(db: Kysely<Database>, sealer: ValueSealer, formIds: readonly number[], limit: number) {
  if (formIds.length === 0) return [];
  return db
    .selectFrom('svc_submissions')
    .select(['id', 'uid', 'form_id', 'title', 'values', 'data_key', 'spam_reasons', 'created_at'])
    .where('form_id', 'in', formIds)
    .where('is_spam', '=', 1)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
    .then((rows) => rows.map((r) => ({ id: Number(r.id), formId: Number(r.form_id), title: openSubmissionColumns(sealer, r).title ?? '', spamReasons: parseReasons(r.spam_reasons), createdAt: r.created_at })));
}
