/**
 * Exports (issue #5): CSV that spreadsheets open safely and JSON Lines, through the admin API on
 * both dialects, with the list filters, across batch boundaries; and, on SQLite, 100,000 rows
 * streamed over a real socket while the server's heap stays flat.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { describeEachDialect } from './support/dialects.js';
import type { TestApp } from './support/test-app.js';
import { adminGet, createAdminTestApp, KEYS, PNG, seed, submitWithFiles } from './support/admin-fixture.js';
import { insertSubmission } from '../src/submissions/submission-repository.js';

const START = Date.parse('2026-11-22T10:00:00Z');

/** RFC 4180 parser for the assertions (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) throw new Error('CSV does not end with CRLF');
  return rows;
}

describeEachDialect('exports', (target) => {
  let svc: TestApp;
  let clock = START;
  const ids = { formula: 0, dangerous: 0, multiline: 0, spam: 0, unicode: 0, files: 0 };

  beforeAll(async () => {
    svc = await createAdminTestApp({ url: target.url(), now: () => new Date(clock) });
    const at = (n: number) => new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString();
    ids.formula = await seed(svc, 'notes', {
      title: '=cmd|" /C calc"!A0',
      values: { name: '=1+1', email: '+1@example.test', topics: ['alpha', 'beta'], amount: 5, agree: true },
      createdAt: at(1),
    });
    ids.dangerous = await seed(svc, 'notes', {
      title: '-minus',
      values: { name: '@at', email: '\tlead-tab', amount: -3, agree: false, refs: [['Ann, "the boss"', []]] },
      createdAt: at(2),
    });
    ids.multiline = await seed(svc, 'notes', { title: 'multi', values: { name: '\rcr first', email: 'line one\nline two, "quoted"' }, status: 'closed', createdAt: at(3) });
    ids.spam = await seed(svc, 'notes', { title: 'spam', values: { name: 'Spammer' }, isSpam: true, createdAt: at(4) });
    ids.unicode = await seed(svc, 'notes', { title: 'Zoë', values: { name: 'Zoë 日本 ✓' }, createdAt: at(5) });
    clock = START;
    ids.files = await submitWithFiles(svc, { name: 'Files', refs: [['Bob', []]] }, [
      { field: 'files[attachment][]', name: 'one.png', data: PNG },
      { field: 'files[attachment][]', name: 'two, "2".png', data: PNG },
      { field: 'files[refs][0][1][]', name: 'letter.png', data: PNG },
    ]);
  });
  afterAll(async () => {
    await svc?.close();
  });

  const exportOf = (query: string, apiKey: string = KEYS.reader) => adminGet(svc, `/svc/api/admin/forms/notes/export${query}`, apiKey);

  it('streams CSV with the fixed columns, then one per field handle in definition order', async () => {
    const res = await exportOf('?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="notes-2026-11-22.csv"; filename*=UTF-8''notes-2026-11-22.csv`);
    expect(res.body.startsWith('\uFEFF')).toBe(false);
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual(['id', 'uid', 'title', 'status', 'isSpam', 'createdAt', 'name', 'email', 'agree', 'topics', 'amount', 'refs', 'attachment', 'client', 'clientVersion', 'sourceUrl']);
    // Oldest first, spam left out by default.
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual([ids.formula, ids.dangerous, ids.multiline, ids.unicode, ids.files]);
  });

  it('defuses every formula prefix and keeps quotes, commas and line breaks intact', async () => {
    const rows = parseCsv((await exportOf('')).body);
    const byId = new Map(rows.slice(1).map((r) => [Number(r[0]), r]));
    const formula = byId.get(ids.formula) as string[];
    expect(formula.slice(2, 6)).toEqual([`'=cmd|" /C calc"!A0`, 'open', '0', '2026-11-01T00:01:00.000Z']);
    expect(formula.slice(6, 13)).toEqual(["'=1+1", "'+1@example.test", '1', '["alpha","beta"]', '5', '', '']);
    const dangerous = byId.get(ids.dangerous) as string[];
    expect(dangerous[2]).toBe("'-minus");
    expect(dangerous.slice(6, 12)).toEqual(["'@at", "'\tlead-tab", '0', '', "'-3", '[["Ann, \\"the boss\\"",[]]]']);
    const multiline = byId.get(ids.multiline) as string[];
    expect(multiline.slice(6, 8)).toEqual(["'\rcr first", 'line one\nline two, "quoted"']);
    expect(byId.get(ids.unicode)?.[6]).toBe('Zoë 日本 ✓');
    // No cell a spreadsheet would evaluate survives anywhere in the file.
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('names files instead of upload ids, one per line, also inside tables', async () => {
    const rows = parseCsv((await exportOf('')).body);
    const files = rows.find((r) => Number(r[0]) === ids.files) as string[];
    expect(files[12]).toBe('one.png\ntwo, "2".png');
    expect(JSON.parse(files[11] as string)).toEqual([['Bob', ['letter.png']]]);
  });

  it('starts with a UTF-8 byte order mark when asked (for Excel)', async () => {
    const res = await exportOf('?bom=true');
    expect(res.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(parseCsv(res.body.slice(1))[0]?.[0]).toBe('id');
  });

  it('applies the list filters to the export', async () => {
    const spam = parseCsv((await exportOf('?spam=true')).body);
    expect(spam.slice(1).map((r) => Number(r[0]))).toEqual([ids.spam]);
    const closed = parseCsv((await exportOf('?status=closed&spam=all')).body);
    expect(closed.slice(1).map((r) => Number(r[0]))).toEqual([ids.multiline]);
    const newest = parseCsv((await exportOf('?order=desc&q=zo%C3%AB')).body);
    expect(newest.slice(1).map((r) => Number(r[0]))).toEqual([ids.unicode]);
    const bad = await exportOf('?format=xlsx');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'PAYLOAD_INVALID' });
    expect((await exportOf('?limit=5')).statusCode).toBe(400);
  });

  it('writes JSON Lines that round-trip to what the list API returns', async () => {
    const res = await exportOf('?format=jsonl&spam=all&order=desc');
    expect(res.headers['content-type']).toBe('application/jsonl; charset=utf-8');
    expect(res.body.endsWith('\n')).toBe(true);
    const lines = res.body.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const listed = (await adminGet(svc, '/svc/api/admin/forms/notes/submissions?spam=all')).json() as { data: Record<string, unknown>[] };
    expect(lines.map(({ files, ...rest }) => ({ ...rest, fileCount: (files as unknown[]).length }))).toEqual(listed.data);
    const withFiles = lines.find((l) => l.id === ids.files) as { files: { name: string; field: string }[] };
    expect(withFiles.files.map((f) => [f.field, f.name])).toEqual([
      ['attachment', 'one.png'],
      ['attachment', 'two, "2".png'],
      ['refs', 'letter.png'],
    ]);
  });

  it('reads across batch boundaries without losing or repeating a row', async () => {
    const form = svc.context.forms.get('other');
    if (!form) throw new Error('no other form');
    const db = svc.context.database.db;
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 2_345; i++) {
        await insertSubmission(trx, {
          uid: randomUUID(),
          formId: form.id,
          tokenHash: 'x',
          title: `row ${i}`,
          status: 'open',
          isSpam: false,
          spamReasons: [],
          ip: null,
          values: { subject: `subject ${i}` },
          // Many rows share a timestamp: the id breaks the tie between batches.
          createdAt: new Date(START - 1_000_000 + Math.floor(i / 7) * 1000).toISOString(),
        });
      }
    });
    const rows = parseCsv((await adminGet(svc, '/svc/api/admin/forms/other/export', KEYS.otherReader)).body).slice(1);
    expect(rows).toHaveLength(2_345);
    expect(rows.map((r) => r[6])).toEqual(Array.from({ length: 2_345 }, (_, i) => `subject ${i}`));
  });
});

describe('export memory (SQLite)', () => {
  let svc: TestApp;
  const ROWS = 100_000;

  beforeAll(async () => {
    svc = await createAdminTestApp({ url: null });
    const form = svc.context.forms.get('notes');
    if (!form) throw new Error('no notes form');
    const message = 'x'.repeat(120);
    const base = Date.parse('2026-01-01T00:00:00Z');
    await svc.context.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < ROWS; i++) {
        await insertSubmission(trx, {
          uid: randomUUID(),
          formId: form.id,
          tokenHash: 'x',
          title: `Person ${i}`,
          status: 'open',
          isSpam: false,
          spamReasons: [],
          ip: null,
          values: { name: `Person ${i}`, email: `p${i}@example.test`, topics: ['alpha'], amount: i, refs: [[message, []]] },
          createdAt: new Date(base + i * 1000).toISOString(),
        });
      }
    });
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('streams 100,000 rows over a real socket while the heap stays flat', async () => {
    const address = svc.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    // What the export holds, not the garbage it leaves: the heap is sampled after a full
    // collection, so a busy machine that delays collections cannot fail this, while an export
    // that buffered its rows (tens of MB here) still would.
    v8.setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const retained = () => {
      collect();
      return process.memoryUsage().heapUsed;
    };
    const baseline = retained();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, retained());
    }, 100);
    let bytes = 0;
    let lines = 0;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/svc/api/admin/forms/notes/export?format=csv`, { headers: { authorization: `Bearer ${KEYS.reader}` } });
      expect(res.status).toBe(200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.length;
        for (const byte of value) if (byte === 0x0a) lines++;
      }
    } finally {
      clearInterval(sampler);
    }
    expect(lines).toBe(ROWS + 1);
    expect(bytes).toBeGreaterThan(20 * 1024 * 1024);
    const growthMB = (peak - baseline) / 1024 / 1024;
    process.stderr.write(`export memory: ${(bytes / 1024 / 1024).toFixed(1)} MB exported, retained heap growth ${growthMB.toFixed(1)} MB\n`);
    expect(growthMB).toBeLessThan(20);
  });
});
