/**
 * The PostgreSQL side of the submit scenario (issue #17): a scratch database for one run, made
 * and dropped by the same helper the test suites use, on the server named by BENCH_POSTGRES_URL
 * or SVC_TEST_POSTGRES_URL. Without either the scenario says why and is left out.
 */
import { createScratchDatabase } from '../packages/server/test/support/postgres-database.js';

export async function withBenchPostgres<T>(run: (url: string) => Promise<T>): Promise<T | null> {
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? process.env.SVC_TEST_POSTGRES_URL;
  if (!adminUrl) {
    process.stdout.write('submit on PostgreSQL: skipped (set BENCH_POSTGRES_URL or SVC_TEST_POSTGRES_URL)\n');
    return null;
  }
  const scratch = await createScratchDatabase(adminUrl);
  try {
    return await run(scratch.url);
  } finally {
    await scratch.drop();
  }
}
