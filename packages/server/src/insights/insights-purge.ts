/** Retention of the insights counts (issue #38): hours older than `insights.retentionDays` go, table by table. */
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { INSIGHT_TABLES, type InsightTable } from './insights-writer.js';
import { HOUR_MS } from './insights-recorder.js';

export async function purgeInsights(db: Kysely<Database>, now: Date, retentionDays: number): Promise<number> {
  const before = Math.floor((now.getTime() - retentionDays * 86_400_000) / HOUR_MS);
  let deleted = 0;
  for (const table of Object.keys(INSIGHT_TABLES) as InsightTable[]) {
    const result = await db.deleteFrom(table).where('hour', '<', before).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}
