/** `svc purge`: delete expired drafts, idempotency keys and unclaimed uploads now (the server also does it hourly). */
import { buildApp } from '../app.js';
import { purgeExpired } from '../storage/purge-job.js';
import { commandConfig, type CommandOptions } from './command-options.js';

export async function runPurge(options: CommandOptions): Promise<number> {
  const svc = await buildApp(commandConfig(options), { logger: false });
  try {
    const report = await purgeExpired(svc.context);
    process.stdout.write(
      `Purged ${report.drafts} expired draft(s), ${report.idempotencyKeys} idempotency key(s) and ${report.uploads} unclaimed upload(s).\n`,
    );
    return 0;
  } finally {
    await svc.close();
  }
}
