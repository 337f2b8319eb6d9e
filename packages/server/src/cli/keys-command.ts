/**
 * `svc keys status|rotate` (issue #37 item 1): how many rows of each sealed table have their data
 * key wrapped under each key-encryption key, and rewrapping those not under the active one
 * (privacy/privacy-key-rotation.ts). To rotate: add the new key to `privacy.keys`, make it
 * `privacy.activeKey`, restart, run `svc keys rotate`, and remove the old key from the config only
 * once `svc keys status` shows no row under it.
 */
import { buildApp } from '../app.js';
import { keyStatus, rotateKeys } from '../privacy/privacy-key-rotation.js';
import { commandConfig, type CommandOptions } from './command-options.js';

export interface KeysCommandOptions extends CommandOptions {
  readonly sub: string | undefined;
  readonly batch: string | undefined;
}

const USAGE = 'svc keys status | svc keys rotate [--batch N]\n';

export async function runKeys(options: KeysCommandOptions): Promise<number> {
  if (options.sub !== 'status' && options.sub !== 'rotate') {
    process.stderr.write(USAGE);
    return 2;
  }
  const batch = options.batch === undefined ? 1000 : Number(options.batch);
  if (!Number.isSafeInteger(batch) || batch < 1 || batch > 10_000) {
    process.stderr.write('svc keys rotate: --batch must be 1 to 10000\n');
    return 2;
  }
  const svc = await buildApp(commandConfig(options), { logger: false });
  try {
    const { db } = svc.context.database;
    const active = svc.context.sealer.activeKekId;
    if (options.sub === 'status') {
      process.stdout.write(`active key: ${active}\n`);
      for (const table of await keyStatus(db)) {
        const keys = Object.entries(table.byKek).map(([id, n]) => `${id}: ${n}`);
        process.stdout.write(`${table.table}\t${[...keys, `plain: ${table.plain}`].join(', ')}\n`);
      }
      return 0;
    }
    const results = await rotateKeys(db, svc.context.sealer, {
      batch,
      onBatch: (p) => process.stderr.write(`${p.table}: ${p.rewrapped} rewrapped${p.failed > 0 ? `, ${p.failed} could not be unwrapped` : ''}\n`),
    });
    const failed = results.reduce((n, r) => n + r.failed, 0);
    for (const r of results) process.stdout.write(`${r.table}\t${r.rewrapped} rewrapped under ${active}${r.failed > 0 ? `, ${r.failed} left (their key is not configured)` : ''}\n`);
    // Rows whose key did not unwrap keep the old wrapping: the old key must stay configured.
    return failed > 0 ? 1 : 0;
  } finally {
    await svc.close();
  }
}
