/**
 * `svc export --form contact --format csv|jsonl --out FILE`: the admin API's exporter writing to a
 * file, with the same filters (--status, --spam, --from, --to, --q, --bom). It writes to
 * `FILE.partial` and renames at the end, so a failed export never leaves a truncated FILE behind.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { SvcError } from '@svc/core';
import { buildApp } from '../app.js';
import { parseExportQuery } from '../admin/admin-query.js';
import { readableForm } from '../admin/admin-service.js';
import type { AdminKey } from '../admin/admin-keys.js';
import { exportStream } from '../exports/export-stream.js';
import { countMatching } from '../submissions/submission-search.js';
import { openPoolFor } from '../privacy/privacy-open-pool.js';
import { commandConfig, type CommandOptions } from './command-options.js';
import { createProgressBar } from './progress-bar.js';

/** Whoever can run the CLI can read the config and the database: every form, read only. */
export const OPERATOR_KEY: AdminKey = { name: 'cli', canRead: () => true, canWrite: false, allForms: true };

export interface ExportCommandOptions extends CommandOptions {
  readonly form: string | undefined;
  readonly out: string | undefined;
  /** Query parameters (format, bom, status, spam, from, to, q) as the API takes them. */
  readonly query: Readonly<Record<string, string>>;
}

export async function runExport(options: ExportCommandOptions): Promise<number> {
  if (!options.form || !options.out) {
    process.stderr.write('svc export needs --form HANDLE and --out FILE\n');
    return 2;
  }
  const svc = await buildApp(commandConfig(options), { logger: false });
  const partial = `${options.out}.partial`;
  try {
    const statuses = svc.context.config.submissions.statuses.map((s) => s.handle);
    const form = readableForm(svc.context, OPERATOR_KEY, options.form);
    const query = parseExportQuery(options.query, statuses);
    const services = { db: svc.context.database.db, uploads: svc.context.uploads, sealer: svc.context.sealer, opening: openPoolFor(svc.context.sealer, svc.context.config) };
    const total = await countMatching(services, form.id, query.filter);
    const bar = createProgressBar(total, `Exporting ${form.handle}`);
    let rows = 0;
    await pipeline(
      exportStream(services, form, query, (n) => {
        rows = n;
        bar.update(n);
      }),
      createWriteStream(partial),
    );
    bar.finish();
    await rename(partial, options.out);
    process.stdout.write(`Exported ${rows} submission(s) of ${form.handle} to ${options.out} (${query.format}).\n`);
    return 0;
  } catch (error) {
    await rm(partial, { force: true });
    if (error instanceof SvcError) {
      process.stderr.write(`svc export: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await svc.close();
  }
}
