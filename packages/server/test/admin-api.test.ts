/**
 * The admin REST API (issue #5, "Access for site owners") on both dialects: API keys and scopes,
 * forms with counts, every list filter, keyset pagination while rows are inserted, one submission
 * with its files and signed downloads, status and spam updates, and deletion with the files.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDialect } from './support/dialects.js';
import type { TestApp } from './support/test-app.js';
import { ADMIN_KEYS_CONFIG, adminGet, adminSend, createAdminTestApp, KEYS, PNG, seed, submitWithFiles } from './support/admin-fixture.js';
import { ConfigError, loadConfig } from '../src/config/config-loader.js';
import { TEST_SECRET } from './support/test-app.js';

const START = Date.parse('2026-11-22T10:00:00Z');
const MINUTE = 60_000;

interface Item {
  id: number;
  uid: string;
  title: string;
  status: string;
  isSpam: boolean;
  spamReasons: string[];
  createdAt: string;
  values: Record<string, unknown>;
  fileCount: number;
}
interface Page {
  success: true;
  data: Item[];
  meta: { pluginVersion: string; nextCursor: string | null; limit: number };
}
interface Detail extends Omit<Item, 'fileCount'> {
  form: { id: number; handle: string };
  updatedAt: string;
  files: { id: string; name: string; kind: string; size: number; extension: string; field: string; downloadUrl: string }[];
}

const code = (res: LightMyRequestResponse) => (res.json() as { code: string }).code;

describeEachDialect('admin API', (target) => {
  let svc: TestApp;
  let clock = START;
  // Seeded rows of `notes` for the filter and pagination tests, by name.
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    svc = await createAdminTestApp({ url: target.url(), now: () => new Date(clock) });
    const day = (n: number, h = 0) => new Date(Date.UTC(2026, 10, n, h)).toISOString();
    ids.ann = await seed(svc, 'notes', { title: 'Ann Lee', values: { name: 'Ann Lee', email: 'ann@example.test', amount: 5 }, createdAt: day(1, 9) });
    ids.bob = await seed(svc, 'notes', { title: 'Bob', values: { name: 'Bob', email: 'bob@example.test' }, status: 'closed', createdAt: day(2, 9) });
    ids.percent = await seed(svc, 'notes', { title: '100% sure', values: { name: '100% sure' }, createdAt: day(3, 9) });
    ids.underscore = await seed(svc, 'notes', { title: 'snake_case', values: { name: 'snake_case' }, createdAt: day(4, 9) });
    ids.quote = await seed(svc, 'notes', { title: 'quote', values: { name: 'She said "hi" \\ there' }, createdAt: day(5, 9) });
    ids.spam = await seed(svc, 'notes', { title: 'Buy pills', values: { name: 'Buy pills' }, isSpam: true, createdAt: day(6, 9) });
    ids.pending = await seed(svc, 'notes', { title: 'Carol', values: { name: 'Carol', email: 'CAROL@Example.test' }, status: 'pending', createdAt: day(7, 23) });
    ids.other = await seed(svc, 'other', { title: 'Elsewhere', values: { subject: 'Ann' }, createdAt: day(3) });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const list = async (query: string, apiKey: string = KEYS.admin) => {
    const res = await adminGet(svc, `/svc/api/admin/forms/notes/submissions${query}`, apiKey);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };
  const listIds = async (query: string) => (await list(query)).data.map((i) => i.id);

  describe('keys', () => {
    it('refuses a request without a key with 401 AUTH_REQUIRED and a WWW-Authenticate challenge', async () => {
      const res = await adminGet(svc, '/svc/api/admin/forms', null);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code: 'AUTH_REQUIRED' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="svc-admin"');
      expect(res.headers['x-request-id']).toBeTruthy();
    });

    it('refuses an unknown key, a malformed header and a GraphQL-style token alike', async () => {
      for (const authorization of [`Bearer ${KEYS.admin}x`, `Basic ${KEYS.admin}`, 'Bearer short', `Bearer ${KEYS.admin.toUpperCase()}`]) {
        const res = await svc.app.inject({ method: 'GET', url: '/svc/api/admin/forms', headers: { authorization } });
        expect(res.statusCode, authorization).toBe(401);
        expect(code(res)).toBe('AUTH_REQUIRED');
        expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
      }
    });

    it('lets a read-only key read but not update or delete (403 ADMIN_FORBIDDEN)', async () => {
      expect((await list('', KEYS.reader)).data.length).toBeGreaterThan(0);
      const patch = await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${ids.bob}`, { status: 'open' }, KEYS.reader);
      expect(patch.statusCode).toBe(403);
      expect(code(patch)).toBe('ADMIN_FORBIDDEN');
      const del = await adminSend(svc, 'DELETE', `/svc/api/admin/submissions/${ids.bob}`, undefined, KEYS.reader);
      expect(del.statusCode).toBe(403);
      expect((await adminGet(svc, `/svc/api/admin/submissions/${ids.bob}`)).json()).toMatchObject({ data: { status: 'closed' } });
    });

    it('treats a form the key may not see as unknown, and its submissions too', async () => {
      const listing = await adminGet(svc, '/svc/api/admin/forms/notes/submissions', KEYS.otherReader);
      expect(listing.statusCode).toBe(404);
      expect(code(listing)).toBe('FORM_NOT_FOUND');
      const exported = await adminGet(svc, '/svc/api/admin/forms/notes/export', KEYS.otherReader);
      expect(code(exported)).toBe('FORM_NOT_FOUND');
      const one = await adminGet(svc, `/svc/api/admin/submissions/${ids.ann}`, KEYS.otherReader);
      expect(one.statusCode).toBe(404);
      expect(code(one)).toBe('SUBMISSION_NOT_FOUND');
      const write = await adminSend(svc, 'DELETE', `/svc/api/admin/submissions/${ids.other}`, undefined, KEYS.notesWriter);
      expect(code(write)).toBe('SUBMISSION_NOT_FOUND');
      expect((await adminGet(svc, `/svc/api/admin/submissions/${ids.other}`, KEYS.otherReader)).statusCode).toBe(200);
    });

    it('sends no CORS headers: browsers on other origins cannot use the admin API', async () => {
      const res = await svc.app.inject({
        method: 'GET',
        url: '/svc/api/admin/forms',
        headers: { origin: 'http://localhost:5173', authorization: `Bearer ${KEYS.admin}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await svc.app.inject({
        method: 'OPTIONS',
        url: '/svc/api/admin/forms',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      // A known path without a preflight route: 405 with the methods it takes, and still no CORS headers.
      expect(preflight.statusCode).toBe(405);
      expect(preflight.headers.allow).toBe('GET, HEAD');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });

  it('lists the forms a key may read with total, spam and per-status counts', async () => {
    const all = (await adminGet(svc, '/svc/api/admin/forms')).json() as { success: boolean; data: { handle: string; submissions: unknown }[]; meta: object };
    expect(all.success).toBe(true);
    expect(all.meta).toHaveProperty('pluginVersion');
    expect(all.data.map((f) => f.handle).sort()).toEqual(['keep', 'notes', 'other']);
    const notes = all.data.find((f) => f.handle === 'notes');
    expect(notes?.submissions).toEqual({ total: 7, spam: 1, byStatus: { open: 4, pending: 1, closed: 1 } });
    const scoped = (await adminGet(svc, '/svc/api/admin/forms', KEYS.otherReader)).json() as { data: { handle: string; submissions: unknown }[] };
    expect(scoped.data).toEqual([expect.objectContaining({ handle: 'other', submissions: { total: 1, spam: 0, byStatus: { open: 1, pending: 0, closed: 0 } } })]);
  });

  describe('filters', () => {
    it('leaves spam out by default, and shows it with spam=true or spam=all', async () => {
      expect(await listIds('')).not.toContain(ids.spam);
      expect(await listIds('?spam=true')).toEqual([ids.spam]);
      expect(await listIds('?spam=all')).toHaveLength(7);
    });

    it('filters by status', async () => {
      expect(await listIds('?status=closed')).toEqual([ids.bob]);
      expect(await listIds('?status=pending')).toEqual([ids.pending]);
    });

    it('filters by created date: from is inclusive, a date-only to includes that whole day', async () => {
      expect(await listIds('?from=2026-11-02&to=2026-11-04&sort=id&order=asc')).toEqual([ids.bob, ids.percent, ids.underscore]);
      expect(await listIds('?to=2026-11-07')).toContain(ids.pending);
      expect(await listIds('?from=2026-11-07T23:00:00Z')).toEqual([ids.pending]);
      expect(await listIds('?to=2026-11-01T09:00:00.000Z')).toEqual([]);
    });

    it('searches values and titles case-insensitively', async () => {
      expect(await listIds('?q=carol%40example')).toEqual([ids.pending]);
      expect(await listIds('?q=ANN')).toEqual([ids.ann]);
      expect(await listIds('?q=bob%40example.test')).toEqual([ids.bob]);
    });

    it('takes LIKE wildcards, quotes, backslashes and SQL in q literally', async () => {
      expect(await listIds('?q=%25')).toEqual([ids.percent]);
      expect(await listIds('?q=_')).toEqual([ids.underscore]);
      expect(await listIds(`?q=${encodeURIComponent('"hi" \\ there')}`)).toEqual([ids.quote]);
      expect(await listIds(`?q=${encodeURIComponent("' OR 1=1 --")}`)).toEqual([]);
      expect(await listIds(`?q=${encodeURIComponent("x'); DROP TABLE svc_submissions; --")}`)).toEqual([]);
      expect(await listIds('?spam=all')).toHaveLength(7);
    });

    it('refuses bad parameters with 400 PAYLOAD_INVALID naming them', async () => {
      for (const query of ['?status=nope', '?spam=maybe', '?from=yesterday', '?to=2026-13-45', '?limit=0', '?limit=201', '?limit=abc', '?sort=title', '?order=up', '?stauts=open', '?cursor=%%%', '?status=open&status=closed']) {
        const res = await adminGet(svc, `/svc/api/admin/forms/notes/submissions${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(code(res)).toBe('PAYLOAD_INVALID');
      }
    });

    it('answers FORM_NOT_FOUND for an unknown form', async () => {
      const res = await adminGet(svc, '/svc/api/admin/forms/nope/submissions');
      expect(res.statusCode).toBe(404);
      expect(code(res)).toBe('FORM_NOT_FOUND');
    });
  });

  describe('keyset pagination', () => {
    it('walks every page once, newest first, while new rows arrive in between', async () => {
      const expected = await listIds('?spam=all&limit=200');
      const seen: number[] = [];
      let cursor: string | null = null;
      let page = 0;
      do {
        const body: Page = await list(`?spam=all&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        expect(body.meta.limit).toBe(3);
        seen.push(...body.data.map((i) => i.id));
        cursor = body.meta.nextCursor;
        // A submission arriving mid-walk sorts before the cursor (newer than everything read):
        // with offsets it would push a row already seen onto the next page; with keysets it cannot.
        await seed(svc, 'notes', { title: `late ${page}`, createdAt: new Date(START + page * MINUTE).toISOString() });
        page += 1;
      } while (cursor);
      expect(seen).toEqual(expected);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('pages in ascending order and by id, and refuses a cursor made for another sort', async () => {
      const asc = await list('?order=asc&limit=2');
      const next = await list(`?order=asc&limit=2&cursor=${asc.meta.nextCursor}`);
      const all = await listIds('?order=asc&limit=200');
      expect([...asc.data, ...next.data].map((i) => i.id)).toEqual(all.slice(0, 4));
      const byId = await list('?sort=id&limit=2');
      expect(byId.data[0]?.id).toBeGreaterThan(byId.data[1]?.id ?? Infinity);
      const mixed = await adminGet(svc, `/svc/api/admin/forms/notes/submissions?sort=id&cursor=${asc.meta.nextCursor}`);
      expect(mixed.statusCode).toBe(400);
    });

    it('gives each item its id, uid, title, status, spam flags, date, values and file count', async () => {
      const [item] = (await list('?q=bob%40example')).data;
      expect(item).toEqual({
        id: ids.bob,
        uid: expect.any(String),
        title: 'Bob',
        status: 'closed',
        isSpam: false,
        spamReasons: [],
        createdAt: '2026-11-02T09:00:00.000Z',
        values: { name: 'Bob', email: 'bob@example.test' },
        fileCount: 0,
        client: null,
        // Seeded straight into the table, as submissions made before sites existed (issue #34).
        site: null,
      });
    });
  });

  describe('one submission, its files and signed downloads', () => {
    let id: number;
    let detail: Detail;
    const png2 = Buffer.concat([PNG, Buffer.from('trailing bytes')]);

    beforeAll(async () => {
      id = await submitWithFiles(svc, { name: 'With files' }, [
        { field: 'files[attachment][]', name: 'Résumé "final"; v2.png', data: PNG },
        { field: 'files[attachment][]', name: 'second.png', data: png2 },
      ]);
      detail = ((await adminGet(svc, `/svc/api/admin/submissions/${id}`)).json() as { data: Detail }).data;
    });

    it('returns the values and every file with a download URL', async () => {
      expect(detail).toMatchObject({ id, form: { handle: 'notes' }, title: 'With files', status: 'open', isSpam: false });
      expect(detail.values.attachment).toEqual(detail.files.map((f) => f.id));
      expect(detail.files).toEqual([
        expect.objectContaining({ name: 'Résumé "final"; v2.png', kind: 'image', size: PNG.length, extension: 'png', field: 'attachment' }),
        expect.objectContaining({ name: 'second.png', size: png2.length }),
      ]);
      expect(detail.files[0]?.downloadUrl).toMatch(/^http:\/\/localhost(:\d+)?\/svc\/api\/admin\/files\/[A-Za-z0-9_-]+\/download\?expires=\d+&signature=[A-Za-z0-9_-]+$/);
      const items = (await list('?q=With%20files')).data;
      expect(items[0]?.fileCount).toBe(2);
    });

    it('keeps download links relative when the Host header is not a host name (no publicUrl set)', async () => {
      const res = await svc.app.inject({
        method: 'GET',
        url: `/svc/api/admin/submissions/${id}`,
        headers: { authorization: `Bearer ${KEYS.admin}`, host: 'evil.example/<script>' },
      });
      const { files } = (res.json() as { data: Detail }).data;
      expect(files[0]?.downloadUrl).toMatch(/^\/svc\/api\/admin\/files\/[A-Za-z0-9_-]+\/download\?/);
    });

    it('streams a file through its signed URL as an attachment with its sniffed type', async () => {
      const url = new URL(detail.files[0]?.downloadUrl as string);
      const res = await svc.app.inject({ method: 'GET', url: url.pathname + url.search });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PNG)).toBe(true);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="R_sum_ _final__ v2.png"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%3B%20v2.png`,
      );
    });

    it('refuses a tampered, borrowed, unsigned or expired link with the same 404', async () => {
      const url = new URL(detail.files[0]?.downloadUrl as string);
      const other = new URL(detail.files[1]?.downloadUrl as string);
      const signature = url.searchParams.get('signature') as string;
      const tampered = `${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${signature.slice(0, -2)}AA`;
      const later = `${url.pathname}?expires=${Number(url.searchParams.get('expires')) + 3600}&signature=${signature}`;
      const borrowed = `${other.pathname}?${url.searchParams.toString()}`;
      for (const path of [tampered, later, borrowed, url.pathname]) {
        const res = await svc.app.inject({ method: 'GET', url: path });
        expect(res.statusCode, path).toBe(404);
        expect(code(res)).toBe('FILE_NOT_FOUND');
      }
      clock += 5 * MINUTE + 1000;
      try {
        const expired = await svc.app.inject({ method: 'GET', url: url.pathname + url.search });
        expect(expired.statusCode).toBe(404);
        expect(code(expired)).toBe('FILE_NOT_FOUND');
      } finally {
        clock -= 5 * MINUTE + 1000;
      }
    });

    it('deletes the submission and its files from the store, rows first', async () => {
      const rows = await svc.context.database.db.selectFrom('svc_files').select('storage_key').where('submission_id', '=', id).execute();
      expect(rows).toHaveLength(2);
      const blobs = rows.map((r) => join(svc.dataDir, 'files', ...r.storage_key.split('/')));
      expect(blobs.every((b) => existsSync(b))).toBe(true);
      const res = await adminSend(svc, 'DELETE', `/svc/api/admin/submissions/${id}`, undefined);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, data: { id, files: 2, deleted: true } });
      expect(blobs.some((b) => existsSync(b))).toBe(false);
      expect(await svc.context.database.db.selectFrom('svc_files').select('id').where('storage_key', 'in', rows.map((r) => r.storage_key)).execute()).toEqual([]);
      expect(code(await adminGet(svc, `/svc/api/admin/submissions/${id}`))).toBe('SUBMISSION_NOT_FOUND');
      const url = new URL(detail.files[0]?.downloadUrl as string);
      expect((await svc.app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode).toBe(404);
      expect(code(await adminSend(svc, 'DELETE', `/svc/api/admin/submissions/${id}`, undefined))).toBe('SUBMISSION_NOT_FOUND');
    });
  });

  describe('updates', () => {
    it('sets a configured status and refuses any other', async () => {
      clock += MINUTE;
      const res = await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${ids.ann}`, { status: 'pending' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ data: { id: ids.ann, status: 'pending', updatedAt: new Date(clock).toISOString() } });
      const bad = await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${ids.ann}`, { status: 'archived' });
      expect(bad.statusCode).toBe(400);
      expect(code(bad)).toBe('PAYLOAD_INVALID');
      expect((await list('?status=pending')).data.map((i) => i.id)).toContain(ids.ann);
    });

    it('refuses bodies with unknown keys, wrong types or nothing to change', async () => {
      for (const body of [{}, { isSpam: 'no' }, { status: 'open', title: 'x' }, [], 'open', { status: 3 }]) {
        const res = await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${ids.ann}`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(code(res)).toBe('PAYLOAD_INVALID');
      }
      expect(code(await adminSend(svc, 'PATCH', '/svc/api/admin/submissions/999999', { status: 'open' }))).toBe('SUBMISSION_NOT_FOUND');
      expect(code(await adminSend(svc, 'PATCH', '/svc/api/admin/submissions/abc', { status: 'open' }))).toBe('SUBMISSION_NOT_FOUND');
    });

    it('marks spam and not spam, calling the delivery hook only when spam is cleared', async () => {
      const calls: number[] = [];
      // The admin services hold the context's delivery service itself, so a spy on it is seen.
      const spy = vi.spyOn(svc.context.deliveries, 'queueHeldBack').mockImplementation(async (_trx, id) => {
        calls.push(id);
        return 0;
      });
      try {
        const flag = await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${ids.bob}`, { isSpam: true }, KEYS.notesWriter);
        expect(flag.json()).toMatchObject({ data: { isSpam: true, status: 'closed' } });
        expect(await listIds('?spam=true')).toContain(ids.bob);
        expect(calls).toEqual([]);
        const clear = await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${ids.bob}`, { isSpam: false, status: 'open' }, KEYS.notesWriter);
        expect(clear.json()).toMatchObject({ data: { isSpam: false, status: 'open' } });
        expect(calls).toEqual([ids.bob]);
        await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${ids.bob}`, { isSpam: false }, KEYS.notesWriter);
        expect(calls).toEqual([ids.bob]);
      } finally {
        spy.mockRestore();
      }
    });
  });
});

describe('admin configuration', () => {
  const load = (admin: unknown) => () => loadConfig({ file: null, env: { SVC_SECRET: TEST_SECRET }, values: { admin } });

  it('defaults to no keys and five-minute download links', () => {
    expect(load({})().admin).toEqual({ keys: [], users: [], downloadUrlMinutes: 5 });
  });

  it('refuses a key given in clear, a write-only scope, an unknown scope or a bad form handle, all at once', () => {
    const base = ADMIN_KEYS_CONFIG[0] as { name: string; sha256: string };
    let error: unknown;
    try {
      load({
        keys: [
          { ...base, sha256: KEYS.admin, scopes: ['read'], forms: ['*'] },
          { ...base, scopes: ['write'], forms: ['*'] },
          { ...base, scopes: ['read', 'admin'], forms: ['*'] },
          { ...base, scopes: ['read'], forms: ['Contact'] },
        ],
      })();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const path of ['admin.keys[0].sha256', 'admin.keys[1].scopes', 'admin.keys[2].scopes', 'admin.keys[3].forms']) {
      expect(message.replace(/\//g, '.')).toMatch(new RegExp(path.replace(/[.[\]]/g, '.?')));
    }
  });

  it('answers HEADLESS_DISABLED on every admin route when headless.enabled is false (contract §1)', async () => {
    const svc = await createAdminTestApp({ url: null, config: { headless: { enabled: false } } });
    try {
      for (const url of ['/svc/api/admin/forms', '/svc/api/admin/forms/notes/export', '/svc/api/admin/files/x/download']) {
        const res = await adminGet(svc, url);
        expect(res.statusCode, url).toBe(404);
        expect(code(res)).toBe('HEADLESS_DISABLED');
      }
    } finally {
      await svc.close();
    }
  });
});
