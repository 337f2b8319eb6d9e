/**
 * Opening sealed rows on a worker thread (issue #37 item 6: exports open each batch there while
 * the previous one is formatted). The sources have no compiled worker, so the pool opens on the
 * calling thread; the built package (dist/, which vitest's global setup builds) starts the worker,
 * and both answer the same, in order, with null where a row does not open.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './support/svc-command.js';
import { createOpenPool, type OpenPool } from '../src/privacy/privacy-open-pool.js';
import { createKeyring, secretKek } from '../src/privacy/privacy-keyring.js';
import { createValueSealer } from '../src/privacy/privacy-sealer.js';
import { sealSubmission } from '../src/submissions/submission-persist.js';

const SECRET = 'open-pool-secret-0123456789-abcdefghijklmnop';
const config = { secret: SECRET, privacy: { keys: [], activeKey: null } };
const sealer = createValueSealer(createKeyring([secretKek(SECRET)], 'secret'));

function rows() {
  const sealed = Array.from({ length: 300 }, (_v, i) => {
    const uid = randomUUID();
    const s = sealSubmission(sealer.forNew(), uid, { firstName: `Ann${i}`, message: `row ${i}` }, `Ann${i} Lee`);
    return { uid, title: s.title, values: s.values, data_key: s.dataKey };
  });
  // A legacy plain row, and a sealed row moved to another uid (it no longer opens).
  const legacy = { uid: randomUUID(), title: 'Plain Row', values: '{"firstName":"Plain"}', data_key: null };
  const tampered = { ...(sealed[1] as (typeof sealed)[number]), uid: randomUUID() };
  return [...sealed, legacy, tampered];
}

function expected(input: ReturnType<typeof rows>) {
  return input.map((row, i) =>
    i < 300 ? { title: `Ann${i} Lee`, values: JSON.stringify({ firstName: `Ann${i}`, message: `row ${i}` }) } : i === 300 ? { title: 'Plain Row', values: '{"firstName":"Plain"}' } : { title: null, values: null },
  );
}

describe('the pool that opens sealed rows', () => {
  const pools: OpenPool[] = [];
  afterAll(async () => {
    for (const pool of pools) await pool.close();
  });

  it('opens on the calling thread where there is no compiled worker (the sources)', async () => {
    const pool = createOpenPool(sealer, config);
    pools.push(pool);
    const input = rows();
    expect(await pool.open(input)).toEqual(expected(input));
  });

  it('opens on a worker thread in the built package, batches in flight at once each answered with its own rows', async () => {
    expect(existsSync(join(REPO_ROOT, 'packages/server/dist/privacy/privacy-open-worker.js'))).toBe(true);
    const built = (await import(pathToFileURL(join(REPO_ROOT, 'packages/server/dist/privacy/privacy-open-pool.js')).href)) as typeof import('../src/privacy/privacy-open-pool.js');
    const pool = built.createOpenPool(sealer, config);
    pools.push(pool);
    const first = rows();
    const second = rows();
    const [a, b] = await Promise.all([pool.open(first), pool.open(second)]);
    expect(a).toEqual(expected(first));
    expect(b).toEqual(expected(second));
    expect(await pool.open([])).toEqual([]);
  });
});
