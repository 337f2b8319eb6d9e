/**
 * Data requests (issue #37 items 3-4): the blind index of `personal` fields, finding a person
 * across forms, the export zip through a signed link, erasure with an Ed25519 receipt that
 * verifies with node:crypto alone (the script of docs/privacy.md, run as written) and fails when
 * tampered, the audit entries, the privacy scope, and a resumable reindex. On SQLite and
 * PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import type { Values } from '@svc/core';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDialect } from './support/dialects.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { fieldPart, filePart, multipartBody } from './support/multipart-body.js';
import { tinyPng } from './support/sample-files.js';
import { seed } from './support/admin-fixture.js';
import { pageBlocks } from './support/docs-blocks.js';
import { createBlindIndex } from '../src/privacy/privacy-blind-index.js';
import { reindexSubmissions } from '../src/privacy/privacy-reindex.js';
import { hashPassword } from '../src/console/console-passwords.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config-loader.js';
import { insertSubmission } from '../src/submissions/submission-repository.js';
import { runSvc } from './support/svc-command.js';

const FORMS_DIR = resolve(import.meta.dirname, 'fixtures/privacy-forms');
const DOC = 'docs/privacy.md';
const PNG = tinyPng();

const key = () => `svc_${randomBytes(24).toString('base64url')}`;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const PASSWORD = 'correct horse battery staple';
const KEYS = { desk: key(), signupDesk: key(), writer: key(), finder: key() } as const;
const KEYS_CONFIG = [
  { name: 'desk', sha256: sha(KEYS.desk), scopes: ['read', 'write', 'privacy'], forms: ['*'] },
  { name: 'signup-desk', sha256: sha(KEYS.signupDesk), scopes: ['read', 'write', 'privacy'], forms: ['signup'] },
  { name: 'writer', sha256: sha(KEYS.writer), scopes: ['read', 'write'], forms: ['*'] },
  { name: 'finder', sha256: sha(KEYS.finder), scopes: ['read', 'privacy'], forms: ['*'] },
];

interface Receipt {
  readonly receipt: { id: string; subject: { kind: string; hash: string }; erased: { submission: number; form: string; files: number }[]; at: string; by: string };
  readonly signature: string;
  readonly keyId: string;
}

describeEachDialect('privacy requests', (target) => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        database: { url: target.url() },
        forms: { dir: FORMS_DIR, watch: false },
        headless: { forms: { signup: { exposeManifest: true, allowSubmit: true }, claims: { exposeManifest: true, allowSubmit: true } } },
        admin: { keys: KEYS_CONFIG, users: [{ username: 'pat', passwordHash: await hashPassword(PASSWORD), scopes: ['read', 'write', 'privacy'], forms: ['*'] }, { username: 'rory', passwordHash: await hashPassword(PASSWORD), scopes: ['read', 'write'], forms: ['*'] }] },
        deliveries: { enabled: false },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const post = (path: string, body: unknown, apiKey: string = KEYS.desk): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method: 'POST', url: `/svc/api/admin/privacy/${path}`, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

  async function signup(values: Record<string, unknown>): Promise<number> {
    const res = await svc.submit('signup', { intent: 'submit', values });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { submission: { id: number } }).submission.id;
  }

  async function claim(contact: string, photo: Buffer | null): Promise<number> {
    const { token, cookie } = await svc.csrf();
    const body = multipartBody([
      fieldPart('_svc', JSON.stringify({ intent: 'submit', values: { contact, story: 'A tree fell on it' } })),
      fieldPart('SVC_CSRF_TOKEN', token),
      ...(photo ? [filePart('files[photo][]', 'dent.png', photo, 'image/png')] : []),
    ]);
    const res = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/claims/submit', headers: { ...body.headers, cookie }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { submission: { id: number } }).submission.id;
  }

  const ids = (res: LightMyRequestResponse) => (res.json() as { data: { submissions: { id: number }[] } }).data.submissions.map((s) => s.id);
  const auditOf = (action: string) => svc.context.database.db.selectFrom('svc_audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

  let ann: { signup: number; claim: number };
  let bob: number;

  it('indexes personal values in the submit transaction, as keyed hashes only', async () => {
    ann = { signup: await signup({ name: 'Ann', email: 'Ann@Example.TEST', member: 'M-1' }), claim: await claim('ann@example.test', PNG) };
    bob = await signup({ name: 'Bob', email: 'bob@example.test', member: 'M-2' });
    const rows = await svc.context.database.db.selectFrom('svc_privacy_index').selectAll().orderBy('submission_id').execute();
    expect(rows.filter((r) => r.submission_id === ann.signup).map((r) => r.kind).sort()).toEqual(['email', 'identifier']);
    expect(rows.filter((r) => r.submission_id === ann.claim)).toHaveLength(1);
    // No plaintext: neither the address nor the identifier appears anywhere in the index.
    expect(JSON.stringify(rows).toLowerCase()).not.toMatch(/example|m-1|ann/);
  });

  it('finds a person across two forms by address, normalised, and by identifier', async () => {
    const found = await post('find', { email: 'ANN@example.test' });
    expect(found.statusCode, found.body).toBe(200);
    expect(ids(found)).toEqual([ann.signup, ann.claim]);
    expect((found.json() as { data: { submissions: { form: string }[] } }).data.submissions.map((s) => s.form)).toEqual(['signup', 'claims']);
    expect(ids(await post('find', { identifier: ' M-1 ' }))).toEqual([ann.signup]);
    // A key for one form finds only that form's submissions.
    expect(ids(await post('find', { email: 'ann@example.test' }, KEYS.signupDesk))).toEqual([ann.signup]);
    expect(ids(await post('find', { email: 'nobody@example.test' }))).toEqual([]);
  });

  it('refuses keys without the privacy scope, erasing without write, and bad bodies', async () => {
    const refused = await post('find', { email: 'ann@example.test' }, KEYS.writer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'ADMIN_FORBIDDEN' });
    expect((await post('export', { email: 'ann@example.test' }, KEYS.writer)).statusCode).toBe(403);
    expect((await post('erase', { email: 'ann@example.test', confirm: true }, KEYS.finder)).statusCode).toBe(403);
    const noKey = await svc.app.inject({ method: 'POST', url: '/svc/api/admin/privacy/find', headers: { 'content-type': 'application/json' }, payload: '{"email":"a@b.c"}' });
    expect(noKey.statusCode).toBe(401);
    for (const body of [{}, { email: 'a@b.c', identifier: 'x' }, { email: '   ' }, { email: 5 }, { email: 'a@b.c', extra: 1 }]) {
      const res = await post('find', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'PAYLOAD_INVALID' });
    }
    const unconfirmed = await post('erase', { email: 'ann@example.test' });
    expect(unconfirmed.statusCode).toBe(400);
    expect(ids(await post('find', { email: 'ann@example.test' }))).toHaveLength(2);
  });

  it('exports every submission and file of the person as a zip through a signed link, audited', async () => {
    const res = await post('export', { email: 'ann@example.test' });
    expect(res.statusCode, res.body).toBe(200);
    const { downloadUrl, submissions } = (res.json() as { data: { downloadUrl: string; submissions: number } }).data;
    expect(submissions).toBe(2);
    expect(downloadUrl).not.toMatch(/example\.test|ann/i);
    const path = downloadUrl.replace(/^https?:\/\/[^/]+/, '');
    const tampered = await svc.app.inject({ method: 'GET', url: path.replace(/signature=./, 'signature=A') });
    expect(tampered.statusCode).toBe(404);
    const zip = await svc.app.inject({ method: 'GET', url: path });
    expect(zip.statusCode, zip.body).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const entries = unzipSync(new Uint8Array(zip.rawPayload));
    const document = JSON.parse(Buffer.from(entries['submissions.json'] as Uint8Array).toString('utf8')) as { submissions: { id: number; values: Record<string, unknown>; files: { path: string }[] }[] };
    expect(document.submissions.map((s) => s.id)).toEqual([ann.signup, ann.claim]);
    expect(document.submissions[0]?.values).toMatchObject({ name: 'Ann', member: 'M-1' });
    const filePath = document.submissions[1]?.files[0]?.path as string;
    expect(filePath).toMatch(new RegExp(`^files/${ann.claim}/.+-dent\\.png$`));
    expect(Buffer.from(entries[filePath] as Uint8Array).equals(PNG)).toBe(true);
    expect(JSON.stringify(document)).not.toContain('bob@example.test');
    const audit = await auditOf('privacy.export');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'key:desk' });
    expect(JSON.parse(audit[0]?.detail ?? '{}')).toEqual({ submissions: 2 });
  });

  it('erases the person with a receipt that verifies with node:crypto (the docs script) and fails when tampered', async () => {
    const filesBefore = await svc.context.uploads.listForSubmissions([ann.claim]);
    expect(filesBefore).toHaveLength(1);
    const res = await post('erase', { email: 'ann@example.test', confirm: true });
    expect(res.statusCode, res.body).toBe(200);
    const signed = (res.json() as { data: Receipt }).data;
    expect(signed.receipt.erased).toEqual([{ submission: ann.signup, form: 'signup', files: 0 }, { submission: ann.claim, form: 'claims', files: 1 }]);
    expect(signed.receipt.by).toBe('key:desk');
    expect(signed.receipt.subject.kind).toBe('email');
    // Gone: the rows, the index rows, the stored file; Bob is untouched.
    expect(ids(await post('find', { email: 'ann@example.test' }))).toEqual([]);
    const left = await svc.context.database.db.selectFrom('svc_submissions').select('id').execute();
    expect(left.map((r) => Number(r.id))).toEqual([bob]);
    expect(await svc.context.database.db.selectFrom('svc_privacy_index').select('submission_id').where('submission_id', 'in', [ann.signup, ann.claim]).execute()).toEqual([]);
    expect(await svc.context.uploads.store.get(filesBefore[0]?.storageKey as string)).toBeNull();

    const keys = await svc.app.inject({ method: 'GET', url: '/svc/privacy/receipt-key' });
    expect(keys.statusCode).toBe(200);
    const jwks = keys.json() as { keys: { kty: string; crv: string; x: string; kid: string }[] };
    const jwk = jwks.keys.find((k) => k.kid === signed.keyId);
    expect(jwk).toBeDefined();
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk?.x as string }, format: 'jwk' });
    const check = (receipt: unknown) => verify(null, Buffer.from(JSON.stringify(receipt), 'utf8'), publicKey, Buffer.from(signed.signature, 'base64url'));
    expect(check(JSON.parse(JSON.stringify(signed.receipt)))).toBe(true);
    expect(check({ ...signed.receipt, erased: signed.receipt.erased.slice(1) })).toBe(false);
    expect(check({ ...signed.receipt, at: '2020-01-01T00:00:00.000Z' })).toBe(false);

    // The page's script, run as written with the receipt and the published key set beside it.
    const blocks = pageBlocks(DOC);
    const script = blocks.find((b) => b.lang === 'js' && b.body.includes('node:crypto'))?.body as string;
    const command = blocks.find((b) => b.lang === 'sh' && b.runsIn === 'packages/server/test/privacy-requests.test.ts')?.body as string;
    expect(script).toMatch(/^import .* from 'node:crypto';/m);
    expect(script).not.toMatch(/from '(?!node:)/);
    const dir = mkdtempSync(join(tmpdir(), 'svc-receipt-'));
    try {
      writeFileSync(join(dir, 'verify-receipt.mjs'), script);
      writeFileSync(join(dir, 'receipt-key.json'), keys.body);
      writeFileSync(join(dir, 'receipt.json'), JSON.stringify(signed, null, 2));
      expect(execFileSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8' })).toMatch(/^valid: 2 submission\(s\) erased at .+ by key:desk/);
      const forged = { ...signed, receipt: { ...signed.receipt, erased: [...signed.receipt.erased, { submission: 99, form: 'claims', files: 0 }] } };
      writeFileSync(join(dir, 'receipt.json'), JSON.stringify(forged));
      let failed: { status: number | null; stdout: string } | null = null;
      try {
        execFileSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8' });
      } catch (error) {
        failed = error as { status: number | null; stdout: string };
      }
      expect(failed?.status).toBe(1);
      expect(failed?.stdout).toContain('NOT VALID');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // One audit entry per form erased, with the receipt's id, committed with the delete.
    const audit = await auditOf('privacy.erase');
    expect(audit.map((a) => a.form_handle)).toEqual(['signup', 'claims']);
    expect(audit.every((a) => a.target === `subject:email:${signed.receipt.subject.hash}`)).toBe(true);
    expect(JSON.parse(audit[1]?.detail ?? '{}')).toEqual({ receipt: signed.receipt.id, submissions: [ann.claim], files: 1 });
  });

  /** A console session cookie for `username`, signed in through the real sign-in form. */
  async function consoleSession(username: string): Promise<{ cookie: string; csrf: string }> {
    const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
    const pre = /svc_console_pre=([^;]+)/.exec(String(page.headers['set-cookie']))?.[1] ?? '';
    const signInCsrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const signed = await svc.app.inject({
      method: 'POST',
      url: '/svc/console/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${pre}` },
      payload: new URLSearchParams({ csrf: signInCsrf, username, password: PASSWORD }).toString(),
    });
    const cookie = `svc_console=${/svc_console=([^;]+)/.exec(String(signed.headers['set-cookie']))?.[1] ?? ''}`;
    const home = await svc.app.inject({ method: 'GET', url: '/svc/console/privacy', headers: { cookie } });
    return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(home.body)?.[1] ?? '' };
  }

  it('finds, exports and erases in the console, after a confirmation step, showing the receipt', async () => {
    const eve = await signup({ name: 'Eve', email: 'eve@example.test', member: 'M-9' });
    const { cookie, csrf } = await consoleSession('pat');
    expect(csrf).not.toBe('');
    const form = (path: string, fields: Record<string, string>, session = { cookie, csrf }) =>
      svc.app.inject({ method: 'POST', url: `/svc/console/privacy/${path}`, headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ csrf: session.csrf, ...fields }).toString() });
    const found = await form('find', { kind: 'email', value: 'EVE@example.test' });
    expect(found.statusCode).toBe(200);
    expect(found.headers['content-security-policy']).toContain("script-src 'self'");
    expect(found.body).toContain(`/submissions/${eve}"`);
    expect(found.body).toContain('1 submission(s) found');
    // Without the session's CSRF token nothing happens.
    expect((await form('erase', { kind: 'email', value: 'eve@example.test', confirm: 'yes' }, { cookie, csrf: 'forged' })).statusCode).toBe(400);
    const exported = await form('export', { kind: 'email', value: 'eve@example.test' });
    expect(exported.statusCode).toBe(303);
    expect(exported.headers.location).toMatch(/^\/svc\/api\/admin\/privacy\/exports\/download\?/);
    const zip = await svc.app.inject({ method: 'GET', url: String(exported.headers.location) });
    expect(zip.statusCode).toBe(200);
    expect(Object.keys(unzipSync(new Uint8Array(zip.rawPayload)))).toEqual(['submissions.json']);
    const confirm = await form('erase', { kind: 'email', value: 'eve@example.test' });
    expect(confirm.body).toContain('Erase permanently');
    expect(ids(await post('find', { email: 'eve@example.test' }))).toEqual([eve]);
    const receipt = await form('erase', { kind: 'email', value: 'eve@example.test', confirm: 'yes' });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.body).toContain('&quot;by&quot;: &quot;user:pat&quot;');
    expect(ids(await post('find', { email: 'eve@example.test' }))).toEqual([]);
    // An account without the privacy scope gets neither the page nor the requests.
    const rory = await consoleSession('rory');
    expect((await svc.app.inject({ method: 'GET', url: '/svc/console/privacy', headers: { cookie: rory.cookie } })).statusCode).toBe(404);
  });

  it('backfills the index with svc privacy reindex, in batches, resumably by id', async () => {
    const at = '2026-01-01T00:00:00.000Z';
    const old = [
      await seed(svc, 'signup', { values: { name: 'Cy', email: 'cy@example.test', member: 'M-3' }, createdAt: at }),
      await seed(svc, 'claims', { values: { contact: 'CY@example.test', story: 'x' }, createdAt: at }),
      await seed(svc, 'signup', { values: { name: 'Di', email: 'di@example.test', member: '' }, createdAt: at }),
    ];
    // Stored without the submit path: not indexed yet.
    expect(ids(await post('find', { email: 'cy@example.test' }))).toEqual([]);
    const index = createBlindIndex(svc.config.secret as string);
    const seen: number[] = [];
    // A run that stops after its first batch (a crash), then the resumed run from the id it printed.
    const stop = new Error('stopped');
    await expect(reindexSubmissions(svc.context.database.db, svc.context.sealer, svc.context.forms, index, { after: 0, batch: 2, onBatch: (last) => { seen.push(last); throw stop; } })).rejects.toBe(stop);
    expect(seen).toHaveLength(1);
    const resumed = await reindexSubmissions(svc.context.database.db, svc.context.sealer, svc.context.forms, index, { after: seen[0] as number, batch: 2 });
    expect(resumed.lastId).toBe(old[2]);
    // Only what the first run had not done: the two submissions after the id it printed.
    expect(resumed.submissions).toBe(2);
    expect(ids(await post('find', { email: 'cy@example.test' }))).toEqual([old[0], old[1]]);
    expect(ids(await post('find', { email: 'di@example.test' }))).toEqual([old[2]]);
    // Running it again from the start changes nothing.
    const before = await svc.context.database.db.selectFrom('svc_privacy_index').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await reindexSubmissions(svc.context.database.db, svc.context.sealer, svc.context.forms, index, { after: 0, batch: 2 });
    const after = await svc.context.database.db.selectFrom('svc_privacy_index').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('svc privacy on the command line', () => {
  let dir: string;
  const env = { ...process.env, SVC_SECRET: 'cli-privacy-secret-0123456789-abcdefghijklmnop' };
  const svc = (args: string[]) => runSvc([...args, '--config', join(dir, 'svc.config.yaml')], { cwd: dir, env, timeoutMs: 120_000 });
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-privacy-cli-'));
    writeFileSync(join(dir, 'svc.config.yaml'), `dataDir: ${JSON.stringify(join(dir, 'data'))}\nforms: { dir: ${JSON.stringify(FORMS_DIR)}, watch: false }\nlog: { level: silent }\n`);
    // Two submissions stored without the submit path (as before the index existed): reindex finds them.
    const app = await buildApp(loadConfig({ file: join(dir, 'svc.config.yaml'), env }), { logger: false });
    try {
      const signupForm = app.context.forms.get('signup');
      const claimsForm = app.context.forms.get('claims');
      if (!signupForm || !claimsForm) throw new Error('fixture forms missing');
      const row = (formId: number, values: Values) => ({ uid: `u-${Math.random()}`, formId, tokenHash: sha(String(Math.random())), title: '', status: 'open', isSpam: false, spamReasons: [], ip: null, values, createdAt: '2026-11-01T00:00:00.000Z' });
      await insertSubmission(app.context.database.db, row(signupForm.id, { name: 'Flo', email: 'flo@example.test', member: 'F-1' }));
      await insertSubmission(app.context.database.db, row(claimsForm.id, { contact: 'FLO@example.test', story: 'x' }));
    } finally {
      await app.close();
    }
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('checks forms with personal fields, reindexes, finds, exports and erases with a receipt that verifies', { timeout: 600_000 }, async () => {
    // Each run is a process that loads the whole CLI, so the runs that do not depend on each other
    // go together: forms check and receipt-key touch no database, and find, export and the erase
    // refused for want of --yes only read what reindex wrote.
    const [check, reindex, key] = await Promise.all([svc(['forms', 'check', FORMS_DIR]), svc(['privacy', 'reindex', '--batch', '1']), svc(['privacy', 'receipt-key'])]);
    expect(check.status, check.stderr).toBe(0);
    expect(reindex.status, reindex.stderr).toBe(0);
    expect(reindex.stderr).toContain('resume with --after 1');
    expect(reindex.stdout).toMatch(/Reindexed 2 submission\(s\)/);
    const [find, exported, unconfirmed] = await Promise.all([
      svc(['privacy', 'find', '--email', 'flo@example.test']),
      svc(['privacy', 'export', '--email', 'flo@example.test', '--out', join(dir, 'flo.zip')]),
      svc(['privacy', 'erase', '--email', 'flo@example.test']),
    ]);
    expect(find.stdout).toMatch(/^1\tsignup\t.*\n2\tclaims\t.*\n2 submission\(s\)\.\n$/);
    expect(exported.status, exported.stderr).toBe(0);
    const document = JSON.parse(Buffer.from(unzipSync(new Uint8Array(readFileSync(join(dir, 'flo.zip'))))['submissions.json'] as Uint8Array).toString('utf8')) as { submissions: unknown[] };
    expect(document.submissions).toHaveLength(2);
    expect(unconfirmed.status).toBe(2);
    const erased = await svc(['privacy', 'erase', '--email', 'flo@example.test', '--yes']);
    expect(erased.status, erased.stderr).toBe(0);
    const signed = JSON.parse(erased.stdout) as Receipt;
    expect(signed.receipt.by).toBe('cli');
    expect(signed.receipt.erased.map((e) => e.form)).toEqual(['signup', 'claims']);
    const jwks = JSON.parse(key.stdout) as { keys: { x: string; kid: string }[] };
    expect(jwks.keys[0]?.kid).toBe(signed.keyId);
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwks.keys[0]?.x as string }, format: 'jwk' });
    expect(verify(null, Buffer.from(JSON.stringify(signed.receipt), 'utf8'), publicKey, Buffer.from(signed.signature, 'base64url'))).toBe(true);
    expect((await svc(['privacy', 'find', '--email', 'flo@example.test'])).stdout).toBe('0 submission(s).\n');
    expect(existsSync(join(dir, 'flo.zip.partial'))).toBe(false);
  });
});
