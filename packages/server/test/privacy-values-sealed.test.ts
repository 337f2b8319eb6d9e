/**
 * Submissions' values and titles sealed at rest (issue #37 items 1 and 6): a submission made
 * through the HTTP API is stored as `sv1.` text under its own wrapped data key, no byte of its
 * marker is in the SQLite file or its WAL, and it reads back through the admin API (detail, list,
 * the text search) and both export formats. Legacy plaintext rows read the same, are sealed by the
 * resumable pass, and `svc keys rotate` rewraps data keys under a new KEK without touching values.
 * SQLite always, PostgreSQL when SVC_TEST_POSTGRES_URL is set. The command-line part runs the
 * commands docs/privacy.md shows (svc privacy encrypt, svc keys status and rotate).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, EXAMPLE_FORMS_DIR, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';
import { runSvc } from './support/svc-command.js';
import { insertSubmissions, type NewSubmission } from '../src/submissions/submission-repository.js';
import { SEARCH_SCAN_CAP } from '../src/submissions/submission-search.js';
import { countLegacySubmissions, encryptLegacySubmissions, startLegacyEncryption } from '../src/privacy/privacy-legacy-encryption.js';
import { keyStatus, rotateKeys } from '../src/privacy/privacy-key-rotation.js';
import { createValueSealer, openSubmissionValues } from '../src/privacy/privacy-sealer.js';
import { keyringFromConfig } from '../src/privacy/privacy-config.js';
import { sealBytes } from '../src/privacy/privacy-keyring.js';
import { deriveKey } from '../src/security/token-crypto.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config-loader.js';

const ADMIN_KEY = `svc_${randomBytes(24).toString('base64url')}`;
const ADMIN_KEYS = [{ name: 'admin', sha256: createHash('sha256').update(ADMIN_KEY).digest('hex'), scopes: ['read', 'write'], forms: ['*'] }];
const ROTATED_KEK = 'a key-encryption key for the rotation test, 0123456789';

type Item = { id: number; title: string; values: Record<string, unknown> };

describeEachDialect('submissions sealed at rest', (target) => {
  let svc: TestApp;
  const run = randomUUID().slice(0, 8);
  const marker = `sealed-marker-${run}-${randomUUID()}`;
  let submissionId = 0;
  const admin = (url: string) => svc.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  const db = () => svc.context.database.db;
  const formId = () => svc.context.forms.get('contact')?.id as number;
  /** Plain rows as an installation stored them before sealing (no data key). */
  const legacyRow = (i: number, values: Record<string, string>, createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()): NewSubmission => ({
    uid: randomUUID(),
    formId: formId(),
    tokenHash: randomUUID(),
    title: `${values.firstName ?? ''} ${values.lastName ?? ''}`.trim(),
    status: 'open',
    isSpam: false,
    spamReasons: [],
    ip: null,
    values,
    createdAt,
  });

  beforeAll(async () => {
    svc = await createTestApp({ config: { database: { url: target.url() }, admin: { keys: ADMIN_KEYS } } });
    const res = await svc.submit('contact', { intent: 'submit', values: { firstName: marker, lastName: 'Sealed', email: 'sealed@example.test', message: `About ${marker}` } });
    expect(res.statusCode, res.body).toBe(200);
    submissionId = (res.json() as { submission: { id: number } }).submission.id;
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('stores the values and the title sealed under the row’s own wrapped data key', async () => {
    const row = await db().selectFrom('svc_submissions').select(['values', 'title', 'data_key']).where('id', '=', submissionId).executeTakeFirstOrThrow();
    expect(row.data_key).toMatch(/^secret\.[A-Za-z0-9_-]{64}$/);
    expect(row.values.startsWith('sv1.')).toBe(true);
    // The title is sealed with the values, in one envelope.
    expect(row.title).toBe('');
    expect(`${row.values}${row.title}`).not.toContain(marker);
    if (target.url() === null) {
      // The database file, its WAL and shared memory: no byte of the marker anywhere.
      const files = readdirSync(svc.dataDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.includes('.db'));
      expect(files.some((e) => e.name.endsWith('-wal'))).toBe(true);
      for (const file of files) expect(readFileSync(join(file.parentPath, file.name)).includes(Buffer.from(marker)), file.name).toBe(false);
    }
  });

  it('reads it back through the admin API: the detail, the list and its text search', async () => {
    const detail = (await admin(`/svc/api/admin/submissions/${submissionId}`)).json() as { data: Item };
    expect(detail.data.title).toBe(`${marker} Sealed`);
    expect(detail.data.values).toMatchObject({ firstName: marker, message: `About ${marker}` });
    const searched = (await admin(`/svc/api/admin/forms/contact/submissions?q=${encodeURIComponent(marker.toUpperCase())}`)).json() as { data: Item[] };
    expect(searched.data.map((s) => s.id)).toEqual([submissionId]);
    // In the values only (the message's text), and in the title only.
    const inMessage = (await admin(`/svc/api/admin/forms/contact/submissions?q=${encodeURIComponent(`about ${marker}`)}`)).json() as { data: Item[] };
    expect(inMessage.data.map((s) => s.id)).toEqual([submissionId]);
    const inTitle = (await admin(`/svc/api/admin/forms/contact/submissions?q=${encodeURIComponent(`${marker} sealed`)}`)).json() as { data: Item[] };
    expect(inTitle.data.map((s) => s.id)).toEqual([submissionId]);
    const none = (await admin(`/svc/api/admin/forms/contact/submissions?q=${encodeURIComponent(`no-${randomUUID()}`)}`)).json() as { data: Item[]; meta: { nextCursor: string | null } };
    expect(none.data).toEqual([]);
    expect(none.meta.nextCursor).toBeNull();
  });

  it('exports it opened, as CSV and JSON lines, the text search included', async () => {
    const csv = await admin(`/svc/api/admin/forms/contact/export?format=csv&q=${encodeURIComponent(marker)}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain(`${marker} Sealed`);
    expect(csv.body.trim().split('\r\n')).toHaveLength(2);
    const jsonl = await admin('/svc/api/admin/forms/contact/export?format=jsonl');
    const lines = jsonl.body.trim().split('\n').map((line) => JSON.parse(line) as Item);
    expect(lines.find((l) => l.id === submissionId)?.values).toMatchObject({ firstName: marker });
  });

  it('reads legacy plaintext rows beside sealed ones, and seals them in resumable batches', async () => {
    const ids = await insertSubmissions(db(), [
      legacyRow(1, { firstName: 'Lea', lastName: 'Gacy', email: 'lea@example.test', message: `legacy ${run}` }),
      legacyRow(2, { firstName: 'Leo', lastName: 'Gacy', email: 'leo@example.test', message: `legacy ${run}` }),
      legacyRow(3, { firstName: 'Lia', lastName: 'Gacy', email: 'lia@example.test', message: `legacy ${run}` }),
    ]);
    const search = async () => ((await admin(`/svc/api/admin/forms/contact/submissions?q=${encodeURIComponent(`legacy ${run}`)}&limit=10`)).json() as { data: Item[] }).data;
    expect((await search()).map((s) => s.title).sort()).toEqual(['Lea Gacy', 'Leo Gacy', 'Lia Gacy']);
    expect(await countLegacySubmissions(db())).toBe(3);
    // Stopped after its first batch (a server shutting down): one row sealed, the rest still plain.
    let batches = 0;
    const first = await encryptLegacySubmissions(db(), svc.context.sealer, { batch: 1, stopped: () => batches > 0, onBatch: () => batches++ });
    expect(first).toBe(1);
    expect(await countLegacySubmissions(db())).toBe(2);
    expect((await search()).map((s) => s.title).sort()).toEqual(['Lea Gacy', 'Leo Gacy', 'Lia Gacy']);
    const seen: number[] = [];
    expect(await encryptLegacySubmissions(db(), svc.context.sealer, { batch: 1, onBatch: (n) => seen.push(n) })).toBe(2);
    expect(seen).toEqual([1, 2]);
    expect(await countLegacySubmissions(db())).toBe(0);
    const rows = await db().selectFrom('svc_submissions').select(['values', 'title', 'data_key']).where('id', 'in', ids).execute();
    for (const row of rows) {
      expect(row.data_key).not.toBeNull();
      expect(`${row.values}${row.title}`).not.toMatch(/Gacy|legacy/);
    }
    const after = await search();
    expect(after.map((s) => s.title).sort()).toEqual(['Lea Gacy', 'Leo Gacy', 'Lia Gacy']);
    expect(after.find((s) => s.title === 'Lea Gacy')?.values).toEqual({ firstName: 'Lea', lastName: 'Gacy', email: 'lea@example.test', message: `legacy ${run}` });
  });

  it('seals legacy rows in the background of a serving process, logging its progress', async () => {
    await insertSubmissions(db(), [legacyRow(7, { firstName: 'Bea', lastName: 'Ground', email: 'bea@example.test', message: 'background' })]);
    const lines: string[] = [];
    const log = { info: (obj: object, msg: string) => lines.push(`${msg} ${JSON.stringify(obj)}`), error: (obj: object, msg: string) => lines.push(`ERROR ${msg}`) };
    const sealing = startLegacyEncryption(db(), svc.context.sealer, log);
    await sealing.done;
    await sealing.stop();
    expect(await countLegacySubmissions(db())).toBe(0);
    expect(lines[0]).toMatch(/^sealing submissions stored before encryption at rest .*"submissions":1/);
    expect(lines.at(-1)).toMatch(/^every stored submission is sealed/);
    // Nothing left: a start logs nothing at all.
    const idle: string[] = [];
    const again = startLegacyEncryption(db(), svc.context.sealer, { info: (_o, msg) => idle.push(msg), error: (_o, msg) => idle.push(msg) });
    await again.done;
    expect(idle).toEqual([]);
  });

  it('an owner’s edit re-seals the values under the row’s own data key', async () => {
    const before = await db().selectFrom('svc_submissions').select(['data_key']).where('id', '=', submissionId).executeTakeFirstOrThrow();
    const edit = await svc.app.inject({
      method: 'PATCH',
      url: `/svc/api/admin/submissions/${submissionId}`,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ values: { lastName: `Edited-${run}` } }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const after = await db().selectFrom('svc_submissions').select(['data_key', 'values', 'title']).where('id', '=', submissionId).executeTakeFirstOrThrow();
    expect(after.data_key).toBe(before.data_key);
    expect(`${after.values}${after.title}`).not.toContain(`Edited-${run}`);
    const detail = (await admin(`/svc/api/admin/submissions/${submissionId}`)).json() as { data: Item };
    expect(detail.data.title).toBe(`${marker} Edited-${run}`);
  });

  it('pages a text search through more rows than one page scans: a short page with a cursor, then the match', async () => {
    const needle = `needle-${run}`;
    // The match is the oldest row; newest first, every other row is scanned before it.
    const rows = Array.from({ length: SEARCH_SCAN_CAP + 10 }, (_v, i) => legacyRow(i, { firstName: 'Hay', lastName: `${i}`, email: 'hay@example.test', message: 'hay' }, new Date(Date.UTC(2026, 5, 1, 0, 0, 0, i)).toISOString()));
    await insertSubmissions(db(), [legacyRow(0, { firstName: 'Nee', lastName: 'Dle', email: 'n@example.test', message: needle }, '2025-01-01T00:00:00.000Z'), ...rows]);
    const first = (await admin(`/svc/api/admin/forms/contact/submissions?q=${needle}&limit=5`)).json() as { data: Item[]; meta: { nextCursor: string | null } };
    expect(first.data).toEqual([]);
    expect(first.meta.nextCursor).not.toBeNull();
    const second = (await admin(`/svc/api/admin/forms/contact/submissions?q=${needle}&limit=5&cursor=${first.meta.nextCursor}`)).json() as { data: Item[]; meta: { nextCursor: string | null } };
    expect(second.data.map((s) => s.title)).toEqual(['Nee Dle']);
    expect(second.meta.nextCursor).toBeNull();
  });

  it('rotates data keys to a new key-encryption key without rewriting values, resumably', async () => {
    const before = await keyStatus(db());
    const submissions = before.find((t) => t.table === 'svc_submissions');
    expect(submissions?.byKek.secret).toBeGreaterThan(0);
    const valuesBefore = await db().selectFrom('svc_submissions').select(['id', 'values']).where('id', '=', submissionId).executeTakeFirstOrThrow();
    const config = { ...svc.config, privacy: { keys: [{ id: 'k2', env: 'SVC_TEST_ROTATED_KEK' }], activeKey: 'k2' } };
    const rotated = createValueSealer(keyringFromConfig(config, { SVC_TEST_ROTATED_KEK: ROTATED_KEK }));
    // Cut short after the first batch of the first table, then run again: it finds only what is left.
    const stop = new Error('stop');
    await expect(rotateKeys(db(), rotated, { batch: 2, onBatch: () => { throw stop; } })).rejects.toBe(stop);
    const results = await rotateKeys(db(), rotated, { batch: 50 });
    expect(results.every((r) => r.failed === 0)).toBe(true);
    const status = (await keyStatus(db())).find((t) => t.table === 'svc_submissions');
    expect(status?.byKek).toEqual({ k2: submissions?.byKek.secret });
    const row = await db().selectFrom('svc_submissions').select(['values', 'title', 'data_key', 'uid']).where('id', '=', submissionId).executeTakeFirstOrThrow();
    expect(row.values).toBe(valuesBefore.values);
    expect(openSubmissionValues<Record<string, unknown>>(rotated, row)).toMatchObject({ firstName: marker });
    // The old keyring alone (without k2) no longer opens it: the rows now need the new key.
    expect(openSubmissionValues(svc.context.sealer, row)).toBeNull();
    // A key wrapped in the first form (AES-256-GCM, 60 bytes) under the active KEK itself is counted
    // under its KEK and rewrapped into the current form by the next rotation.
    const dataKey = rotated.unwrap(row.data_key as string) as Buffer;
    const firstForm = `k2.${sealBytes(deriveKey(ROTATED_KEK, 'privacy-kek:k2'), dataKey, Buffer.from('svc:data-key')).toString('base64url')}`;
    await db().updateTable('svc_submissions').set({ data_key: firstForm }).where('id', '=', submissionId).execute();
    expect((await keyStatus(db())).find((t) => t.table === 'svc_submissions')?.byKek).toEqual({ k2: submissions?.byKek.secret });
    const again = await rotateKeys(db(), rotated, { batch: 50 });
    expect(again.find((t) => t.table === 'svc_submissions')).toMatchObject({ rewrapped: 1, failed: 0 });
    const rewrapped = await db().selectFrom('svc_submissions').select(['values', 'title', 'data_key', 'uid']).where('id', '=', submissionId).executeTakeFirstOrThrow();
    expect(rewrapped.data_key).toMatch(/^k2\.[A-Za-z0-9_-]{64}$/);
    expect(openSubmissionValues<Record<string, unknown>>(rotated, rewrapped)).toMatchObject({ firstName: marker });
  });
});

describe('svc keys and svc privacy encrypt on the command line', () => {
  let dir: string;
  const env = { ...process.env, SVC_SECRET: 'cli-keys-secret-0123456789-abcdefghijklmnop', SVC_TEST_K2: ROTATED_KEK };
  const svc = (args: string[]) => runSvc([...args, '--config', join(dir, 'svc.config.yaml')], { cwd: dir, env, timeoutMs: 120_000 });
  const writeConfig = (privacy: string) =>
    writeFileSync(join(dir, 'svc.config.yaml'), `dataDir: ${JSON.stringify(join(dir, 'data'))}\nforms: { dir: ${JSON.stringify(EXAMPLE_FORMS_DIR)}, watch: false }\nlog: { level: silent }\n${privacy}`);
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-keys-cli-'));
    writeConfig('');
    const app = await buildApp(loadConfig({ file: join(dir, 'svc.config.yaml'), env }), { logger: false });
    try {
      const form = app.context.forms.get('contact');
      if (!form) throw new Error('no contact form');
      const row = (i: number): NewSubmission => ({ uid: randomUUID(), formId: form.id, tokenHash: randomUUID(), title: `Old ${i}`, status: 'open', isSpam: false, spamReasons: [], ip: null, values: { firstName: `Old ${i}` }, createdAt: '2026-11-01T00:00:00.000Z' });
      await insertSubmissions(app.context.database.db, [row(1), row(2), row(3)]);
    } finally {
      await app.close();
    }
  }, 120_000);
  afterAll(() => {
    if (dir && existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  });

  it('seals legacy rows with progress, then rotates to a new key and shows the counts per key', { timeout: 600_000 }, async () => {
    const encrypted = await svc(['privacy', 'encrypt', '--batch', '2']);
    expect(encrypted.status, encrypted.stderr).toBe(0);
    expect(encrypted.stderr).toContain('sealed 2 of 3 (up to id 2)');
    expect(encrypted.stdout).toBe('Sealed 3 submission(s) stored before encryption at rest; 0 left plain.\n');
    expect((await svc(['keys', 'status'])).stdout).toMatch(/^active key: secret\nsvc_submissions\tsecret: 3, plain: 0\n/);
    writeConfig('privacy: { keys: [{ id: k2, env: SVC_TEST_K2 }], activeKey: k2 }\n');
    const rotated = await svc(['keys', 'rotate']);
    expect(rotated.status, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain('svc_submissions\t3 rewrapped under k2');
    expect((await svc(['keys', 'status'])).stdout).toMatch(/^active key: k2\nsvc_submissions\tk2: 3, plain: 0\n/);
    const listed = await svc(['submissions', 'list', '--form', 'contact']);
    expect(listed.stdout).toContain('Old 3');
  });
});
