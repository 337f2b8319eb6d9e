/**
 * `svc privacy find|export|erase|reindex|receipt-key` (issue #37): the admin API's data requests
 * for an operator, who can read the config and the database anyway, so every form and every
 * privacy right is theirs (erasures are recorded as `cli`). Each needs the server's own secret:
 * the blind index and the receipt key are derived from it, so another secret finds nobody.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { SvcError } from '@svc/core';
import { buildApp } from '../app.js';
import type { Config } from '../config/config-schema.js';
import type { AdminKey } from '../admin/admin-keys.js';
import { createAdminServices } from '../admin/admin-http.js';
import { createPrivacyServices } from '../privacy/privacy-feature.js';
import { findSubject, parseSubjectRequest } from '../privacy/privacy-subjects.js';
import { exportSubject } from '../privacy/privacy-export.js';
import { eraseSubject } from '../privacy/privacy-erasure.js';
import { reindexSubmissions } from '../privacy/privacy-reindex.js';
import { countLegacySubmissions, encryptLegacySubmissions } from '../privacy/privacy-legacy-encryption.js';
import { countLegacyRows, encryptLegacyRows } from '../privacy/privacy-legacy-rows.js';
import { createProgressBar } from './progress-bar.js';
import { commandConfig, type CommandOptions } from './command-options.js';

/** The operator: every form, every scope. */
const OPERATOR: AdminKey = { name: 'cli', canRead: () => true, canWrite: true, allForms: true, canPrivacy: true };

export interface PrivacyCommandOptions extends CommandOptions {
  readonly sub: string | undefined;
  readonly email: string | undefined;
  readonly identifier: string | undefined;
  readonly out: string | undefined;
  readonly yes: boolean;
  readonly after: string | undefined;
  readonly batch: string | undefined;
  readonly pem: boolean;
}

const USAGE = 'svc privacy find|export|erase --email ADDRESS|--identifier ID [--out FILE.zip] [--yes]; svc privacy reindex [--after ID] [--batch N]; svc privacy encrypt [--batch N]; svc privacy receipt-key [--pem]\n';

function withSecret(options: PrivacyCommandOptions): Config {
  const config = commandConfig(options);
  if (typeof config.secret !== 'string') throw new SvcError('PAYLOAD_INVALID', "svc privacy needs the server's secret (SVC_SECRET or the config's secretFile): the index and the receipt key are derived from it.");
  return config;
}

export async function runPrivacy(options: PrivacyCommandOptions): Promise<number> {
  const { sub } = options;
  if (!sub || !['find', 'export', 'erase', 'reindex', 'encrypt', 'receipt-key'].includes(sub)) {
    process.stderr.write(USAGE);
    return 2;
  }
  try {
    const config = withSecret(options);
    if (sub === 'receipt-key') {
      const signer = createPrivacyServices(config, () => new Date()).signer;
      process.stdout.write(options.pem ? signer.pem() : `${JSON.stringify(signer.jwks(), null, 2)}\n`);
      return 0;
    }
    return await withApp(config, options, sub);
  } catch (error) {
    if (error instanceof SvcError) {
      process.stderr.write(`svc privacy ${sub}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

async function withApp(config: Config, options: PrivacyCommandOptions, sub: string): Promise<number> {
  const svc = await buildApp(config, { logger: false });
  try {
    const privacy = createPrivacyServices(config, svc.context.submit.now);
    const services = createAdminServices(svc.context);
    if (sub === 'encrypt') {
      // issue #37 item 1: submissions stored before values were sealed, in batches; run it again to resume.
      const batch = options.batch === undefined ? 500 : Number(options.batch);
      if (!Number.isSafeInteger(batch) || batch < 1 || batch > 10_000) {
        process.stderr.write('svc privacy encrypt: --batch must be 1 to 10000\n');
        return 2;
      }
      const total = await countLegacySubmissions(services.db);
      const bar = createProgressBar(total, 'Sealing submissions');
      const sealed = await encryptLegacySubmissions(services.db, svc.context.sealer, {
        batch,
        onBatch: (n, lastId) => {
          bar.update(n);
          if (!process.stderr.isTTY) process.stderr.write(`sealed ${n} of ${total} (up to id ${lastId})\n`);
        },
      });
      bar.finish();
      process.stdout.write(`Sealed ${sealed} submission(s) stored before encryption at rest; ${await countLegacySubmissions(services.db)} left plain.\n`);
      // Then uploads (their bytes), idempotency answers, outbox jobs and owners' edits in the audit log.
      const plainRows = Object.values(await countLegacyRows(services.db)).reduce((a, b) => a + b, 0);
      if (plainRows === 0) return 0;
      const rowBar = createProgressBar(plainRows, 'Sealing uploads, answers, jobs, audit');
      const done = new Map<string, number>();
      const rows = await encryptLegacyRows(
        { db: services.db, sealer: svc.context.sealer, store: svc.context.uploads.store },
        {
          batch,
          onBatch: (kind, n) => {
            done.set(kind, n);
            rowBar.update([...done.values()].reduce((a, b) => a + b, 0));
            if (!process.stderr.isTTY) process.stderr.write(`sealed ${n} ${kind}\n`);
          },
        },
      );
      rowBar.finish();
      const left = Object.values(await countLegacyRows(services.db)).reduce((a, b) => a + b, 0);
      process.stdout.write(`Sealed ${Object.entries(rows).map(([kind, n]) => `${n} ${kind}`).join(', ')}; ${left} left plain.\n`);
      return 0;
    }
    if (sub === 'reindex') {
      const after = options.after === undefined ? 0 : Number(options.after);
      const batch = options.batch === undefined ? 500 : Number(options.batch);
      if (!Number.isSafeInteger(after) || after < 0 || !Number.isSafeInteger(batch) || batch < 1 || batch > 10_000) {
        process.stderr.write('svc privacy reindex: --after must be a submission id (0 or more), --batch 1 to 10000\n');
        return 2;
      }
      const done = await reindexSubmissions(services.db, svc.context.sealer, svc.context.forms, privacy.index, {
        after,
        batch,
        onBatch: (lastId, submissions, entries) => process.stderr.write(`indexed ${submissions} submission(s), ${entries} entr(ies); resume with --after ${lastId}\n`),
      });
      process.stdout.write(`Reindexed ${done.submissions} submission(s) (${done.entries} index entries), up to id ${done.lastId}.\n`);
      return 0;
    }
    const body = options.email !== undefined ? { email: options.email } : options.identifier !== undefined ? { identifier: options.identifier } : {};
    const { subject } = parseSubjectRequest(body, privacy.index);
    if (sub === 'find') {
      const found = await findSubject(services.db, OPERATOR, subject);
      for (const s of found) process.stdout.write(`${s.id}\t${s.form}\t${s.createdAt}\n`);
      process.stdout.write(`${found.length} submission(s).\n`);
      return 0;
    }
    if (sub === 'export') {
      if (!options.out) {
        process.stderr.write('svc privacy export needs --out FILE.zip\n');
        return 2;
      }
      const partial = `${options.out}.partial`;
      try {
        const { count, stream } = await exportSubject(services, OPERATOR, subject);
        await pipeline(stream, createWriteStream(partial));
        await rename(partial, options.out);
        process.stdout.write(`Exported ${count} submission(s) to ${options.out}.\n`);
        return 0;
      } finally {
        await rm(partial, { force: true });
      }
    }
    if (!options.yes) {
      process.stderr.write('svc privacy erase cannot be undone: add --yes\n');
      return 2;
    }
    const receipt = await eraseSubject({ ...services, signer: privacy.signer }, OPERATOR, subject, { actor: 'cli', ip: null });
    process.stdout.write(`${JSON.stringify(receipt, null, 2)}\n`);
    return 0;
  } finally {
    await svc.close();
  }
}
