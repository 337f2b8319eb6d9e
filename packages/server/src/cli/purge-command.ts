/** `svc purge`: delete expired drafts, idempotency keys, unclaimed uploads and submissions past their retention now (the server also does it hourly). */
import { buildApp } from '../app.js';
import { purgeExpired } from '../storage/purge-job.js';
import { commandConfig, type CommandOptions } from './command-options.js';

export async function runPurge(options: CommandOptions): Promise<number> {
  const svc = await buildApp(commandConfig(options), { logger: false });
  try {
    const report = await purgeExpired(svc.context);
    process.stdout.write(
      `Purged ${report.drafts} expired draft(s), ${report.idempotencyKeys} idempotency key(s), ${report.uploads} unclaimed upload(s), ` +
        `${report.submissions} submission(s) past their retention and ${report.spam} spam submission(s).\n`,
    );
    return 0;
  } finally {
    await svc.close();
  }
}
