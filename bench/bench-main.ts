/**
 * `npm run bench`: each scenario drives the service and its bare baseline with autocannon in the
 * same run and prints req/s, p99 and the ratio, plus one `bench ...` line per scenario for
 * comparing runs. The export scenario times whole downloads instead and reports rows/s. Benchmarks never assert; they report. BENCH_DURATION (seconds) tunes the length.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { buildSvcSchema } from '../packages/server/src/graphql/graphql-schema.js';
import { fullFormQuery } from './graphql-query.js';
import { EXPORT_KEY, EXPORT_ROWS } from './export-data.js';
import { measureClientWeight, printWeights } from './client-weight.js';
import { measureNotificationLag, measureSustainedRate, printLag, startNotificationSinks } from './notification-lag.js';
import { BIG_FIELDS, BIG_PAGES, bigValues } from './big-form.js';
import { CONNECTIONS, DURATION, ROUNDS, compare, download, measure, median, startTarget, withTargets, type FixedLoad, type Measure } from './bench-harness.js';
import { exportMemoryScenario, printExportMemory } from './export-memory.js';
import { measureSealingCost, printSealingCost } from './sealing-cost.js';
import { erasureScenario, printErasure } from './erasure-ledger.js';
import { measureUploadSealingCost, printUploadSealingCost } from './upload-sealing-cost.js';
import { withBenchPostgres } from './bench-postgres.js';
import { bulkScenario, printBulk } from './bulk-console.js';
import { measureHostedPages, printHostedPages } from './hosted-page-weight.js';
import { consoleReportScenario, printConsoleReport } from './console-report.js';
import { insightsReportScenario, printInsightsReport } from './insights-report.js';

async function csrfAndMeta(port: number) {
  const tokenRes = await fetch(`http://127.0.0.1:${port}/svc/tokens`);
  const cookie = (tokenRes.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const token = ((await tokenRes.json()) as { csrf: { value: string } }).csrf.value;
  const manifest = (await (await fetch(`http://127.0.0.1:${port}/svc/api/forms/contact/manifest`)).json()) as {
    data: { security: { honeypot: { name: string }; javascriptTest: { name: string; value: string } } };
  };
  const { honeypot, javascriptTest } = manifest.data.security;
  return { cookie, token, meta: { honeypot: { name: honeypot.name, value: '' }, javascriptTest } };
}

const VALUES = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello from the benchmark.' };

interface Row {
  readonly scenario: string;
  readonly svc: Measure;
  readonly baseline: Measure;
  /** svc's req/s over the baseline's, the median of the paired rounds' (bench-harness.ts compare). */
  readonly ratio: number;
  readonly fixed: FixedLoad;
}

async function manifestScenario(): Promise<Row> {
  return withTargets(['svc', 'baseline-manifest'], async ([svcPort, basePort], [svcPid, basePid]) => ({
    scenario: 'manifest',
    ...(await compare(
      { url: `http://127.0.0.1:${svcPort}/svc/api/forms/contact/manifest`, pid: svcPid },
      { url: `http://127.0.0.1:${basePort}/manifest`, pid: basePid },
    )),
  }));
}

/** `svc` and `baseline-insert` on SQLite; `svc-pg` and `baseline-pg-insert` on PostgreSQL. */
async function submitScenario(kinds: readonly [string, string] = ['svc', 'baseline-insert'], scenario = 'submit', env: Readonly<Record<string, string>> = {}): Promise<Row> {
  return withTargets(kinds, async ([svcPort, basePort], [svcPid, basePid]) => {
    const { cookie, token, meta } = await csrfAndMeta(svcPort as number);
    return {
      scenario,
      ...(await compare(
        {
          url: `http://127.0.0.1:${svcPort}/svc/api/forms/contact/submit`,
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': token },
          body: JSON.stringify({ intent: 'submit', values: VALUES, meta }),
          pid: svcPid,
        },
        {
          url: `http://127.0.0.1:${basePort}/submit`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ intent: 'submit', values: VALUES }),
          pid: basePid,
        },
      )),
    };
  }, env);
}

/** The two services against each other in alternating rounds: what counting costs a submit, directly. */
async function insightsOnOffScenario(): Promise<Row> {
  return withTargets(['svc', 'svc-no-insights'], async ([onPort, offPort], [onPid, offPid]) => {
    const side = async (port: number, pid: number | undefined) => {
      const { cookie, token, meta } = await csrfAndMeta(port);
      return { ...submitRequest(port, cookie, token, meta), pid };
    };
    return { scenario: 'submit, insights on (baseline: off)', ...(await compare(await side(onPort as number, onPid), await side(offPort as number, offPid))) };
  });
}

const DONOR = { name: 'Ann', email: 'ann@example.test', gift: '25' };

/** The payment checkpoint (issue #12): full validation, the gateway asked, a sealed upsert. */
async function checkpointScenario(): Promise<Row> {
  return withTargets(['svc-payments', 'baseline-checkpoint'], async ([svcPort, basePort], [svcPid, basePid]) => {
    const base = `http://127.0.0.1:${svcPort}`;
    const tokenRes = await fetch(`${base}/svc/tokens`);
    const cookie = (tokenRes.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const token = ((await tokenRes.json()) as { csrf: { value: string } }).csrf.value;
    const manifest = (await (await fetch(`${base}/svc/api/forms/donation/manifest`)).json()) as {
      data: { security: { honeypot: { name: string }; javascriptTest: { name: string; value: string } }; fields: { payment: { frontend: { config: { integration: string } } } } };
    };
    const { honeypot, javascriptTest } = manifest.data.security;
    const integration = manifest.data.fields.payment.frontend.config.integration;
    const headers = { 'content-type': 'application/json', cookie, 'x-csrf-token': token };
    const created = (await (await fetch(`${base}/svc/payments/stripe/payment-intents`, { method: 'POST', headers, body: JSON.stringify({ values: DONOR, integration }) })).json()) as { id: string };
    const meta = { honeypot: { name: honeypot.name, value: '' }, javascriptTest };
    return {
      scenario: 'checkpoint',
      ...(await compare(
        {
          url: `${base}/svc/api/forms/donation/payments/stripe/checkpoint`,
          method: 'POST',
          headers,
          body: JSON.stringify({ intent: 'submit', values: { ...DONOR, payment: created.id }, meta, integration, paymentIntentId: created.id }),
          pid: svcPid,
        },
        { url: `http://127.0.0.1:${basePort}/checkpoint`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ values: DONOR }), pid: basePid },
      )),
    };
  });
}

async function graphqlQueryScenario(): Promise<Row> {
  // The static types are all the query needs, so no forms are required to generate it.
  const query = fullFormQuery(buildSvcSchema([]), 'contact');
  return withTargets(['svc', 'baseline-graphql'], async ([svcPort, basePort], [svcPid, basePid]) => {
    const request = (port: number, pid: number | undefined) => ({
      url: `http://127.0.0.1:${port}/graphql`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
      pid,
    });
    return { scenario: 'graphql-query', ...(await compare(request(svcPort as number, svcPid), request(basePort as number, basePid))) };
  });
}

async function graphqlMutationScenario(): Promise<Row> {
  return withTargets(['svc'], async ([port], [pid]) => {
    const { cookie, token, meta } = await csrfAndMeta(port as number);
    const mutation = `mutation { save_contact_Submission(firstName: "Ann", lastName: "Lee", email: "ann@example.test",
      message: "Hello from the benchmark.", honeypot: {name: "${meta.honeypot.name}", value: ""},
      javascriptTest: {name: "${meta.javascriptTest.name}", value: "${meta.javascriptTest.value}"},
      csrfToken: {name: "SVC_CSRF_TOKEN", value: "${token}"}) { success submissionId } }`;
    return {
      scenario: 'graphql-mutation (baseline: REST submit)',
      ...(await compare(
        {
          url: `http://127.0.0.1:${port}/graphql`,
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ query: mutation }),
          pid,
        },
        {
          url: `http://127.0.0.1:${port}/svc/api/forms/contact/submit`,
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': token },
          body: JSON.stringify({ intent: 'submit', values: VALUES, meta }),
          pid,
        },
      )),
    };
  });
}

/** A real PNG padded to 64 KiB after its end chunk: sniffed as an image, sized like a photo thumbnail. */
const UPLOAD_BYTES = Buffer.concat([
  Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ffa1b7e1b90000000049454e44ae426082',
    'hex',
  ),
  Buffer.alloc(64 * 1024 - 71, 7),
]);

function multipartFile(field: string): { body: Buffer; contentType: string } {
  const boundary = 'svcbenchboundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), UPLOAD_BYTES, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function uploadScenario(): Promise<Row> {
  return withTargets(['svc', 'baseline-upload'], async ([svcPort, basePort], [svcPid, basePid]) => {
    const { cookie, token } = await csrfAndMeta(svcPort as number);
    const { body, contentType } = multipartFile('portfolio');
    // A fresh upload token per request: one token may hold only fileCount (3) uploads. The
    // baseline's requests get one too, which it ignores: a request set up per request makes the
    // load generator re-encode all 64 KiB of it, and on the machine's two cores the generator's
    // CPU is the servers' (about 100 µs per request more for the side that alone had a setup).
    const requests: autocannon.Options['requests'] = [
      { setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-svc-upload-token': randomUUID() } }) },
    ];
    return {
      scenario: 'upload (64 KiB image)',
      ...(await compare(
        {
          url: `http://127.0.0.1:${svcPort}/svc/api/forms/job-application/files/portfolio`,
          method: 'POST',
          headers: { 'content-type': contentType, cookie, 'x-csrf-token': token },
          body,
          requests,
          pid: svcPid,
        },
        { url: `http://127.0.0.1:${basePort}/upload`, method: 'POST', headers: { 'content-type': contentType }, body, requests, pid: basePid },
      )),
    };
  });
}

const micros = (value: number | null) => (value === null ? 'n/a' : value.toFixed(0));

/**
 * Submits at half the service's capacity with its worker on (what it stores and delivers per
 * second, measured first on a target of its own) for a while, and how old the oldest waiting
 * notification gets (issue #17).
 */
async function notificationLagScenario() {
  const sinks = await startNotificationSinks();
  const notifyTarget = async <T>(run: (port: number, dataDir: string) => Promise<T>): Promise<T> => {
    const target = await startTarget('svc-notify', { BENCH_SMTP_URL: sinks.smtpUrl, BENCH_WEBHOOK_URL: sinks.webhookUrl });
    try {
      if (!target.dataDir) throw new Error('svc-notify did not name its data directory');
      return await run(target.port, target.dataDir);
    } finally {
      target.child.removeAllListeners('exit');
      target.child.kill('SIGTERM');
    }
  };
  try {
    const capacity = await notifyTarget(async (port, dataDir) => {
      const { cookie, token, meta } = await csrfAndMeta(port);
      return measureSustainedRate({ dataDir, request: submitRequest(port, cookie, token, meta), seconds: Math.max(2, DURATION / 2), connections: CONNECTIONS });
    });
    const before = sinks.received();
    const lag = await notifyTarget(async (port, dataDir) => {
      const { cookie, token, meta } = await csrfAndMeta(port);
      return measureNotificationLag({ dataDir, request: submitRequest(port, cookie, token, meta), rate: Math.max(1, Math.round(capacity / 2)), seconds: Math.max(10, DURATION * 3) });
    });
    const after = sinks.received();
    return { ...lag, capacity, emails: after.emails - before.emails, webhooks: after.webhooks - before.webhooks };
  } finally {
    await sinks.close();
  }
}

/** A whole-form GraphQL mutation with every value as an argument (CSRF as the mutation argument). */
function mutationRequest(port: number, cookie: string, token: string, handle: string, values: Record<string, string>, extra = ''): autocannon.Options {
  const args = Object.entries(values).map(([name, value]) => `${name}: ${JSON.stringify(value)}`).join(', ');
  const query = `mutation { save_${handle}_Submission(${args}, ${extra} csrfToken: {name: "SVC_CSRF_TOKEN", value: "${token}"}) { success } }`;
  return { url: `http://127.0.0.1:${port}/graphql`, method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ query }) };
}

/**
 * The big form of issue #17 (500 fields, 10 pages, 200 rules) against the small contact form:
 * the manifest's size and build time, a whole submit (one GraphQL mutation) at 100 submits/s, CPU
 * per submit, and a person's walk through all ten pages by REST (next × 9, then submit).
 */
async function bigFormScenario(): Promise<void> {
  await withTargets(['svc-big'], async ([port], [pid]) => {
    const base = `http://127.0.0.1:${port}`;
    let started = performance.now();
    const first = await (await fetch(`${base}/svc/api/forms/big/manifest`)).text();
    const coldMs = performance.now() - started;
    // Served from the cache: the median of 21 fetches, since the second alone measures the
    // warm-up of the code that sends it (2.8 to 21 ms across runs; 1-1.5 ms once warm).
    const warm: number[] = [];
    for (let i = 0; i < 21; i++) {
      started = performance.now();
      await (await fetch(`${base}/svc/api/forms/big/manifest`)).text();
      warm.push(performance.now() - started);
    }
    const warmMs = median(warm);
    const { cookie, token, meta } = await csrfAndMeta(port as number);
    const js = `javascriptTest: {name: "${meta.javascriptTest.name}", value: "${meta.javascriptTest.value}"}, honeypot: {name: "${meta.honeypot.name}", value: ""},`;
    const big = { ...mutationRequest(port as number, cookie, token, 'big', bigValues()), pid };
    const small = { ...mutationRequest(port as number, cookie, token, 'contact', { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello' }, js), pid };
    await measure(big, 1, 50);
    await measure(small, 1, 50);
    const seconds = Math.max(3, DURATION);
    const bigAt100 = await measure(big, seconds, 100);
    const smallAt100 = await measure(small, seconds, 100);
    // A person's walk: one client, page by page, carrying the state token.
    const walks: number[] = [];
    const values = bigValues();
    for (let run = 0; run < 10; run++) {
      const walkStarted = performance.now();
      let state: string | null = null;
      for (let page = 0; page < BIG_PAGES; page++) {
        const pageValues = Object.fromEntries(Object.entries(values).slice(page * (BIG_FIELDS / BIG_PAGES), (page + 1) * (BIG_FIELDS / BIG_PAGES)));
        const res = await fetch(`${base}/svc/api/forms/big/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': token },
          body: JSON.stringify({ intent: page === BIG_PAGES - 1 ? 'submit' : 'next', values: pageValues, context: state ? { stateToken: state } : {}, meta: {} }),
        });
        const body = (await res.json()) as { status: string; state: { token: string | null } };
        if (page < BIG_PAGES - 1 && body.status !== 'page_valid') throw new Error(`big form page ${page}: ${body.status}`);
        if (page === BIG_PAGES - 1 && body.status !== 'submitted') throw new Error(`big form submit: ${body.status}`);
        state = body.state.token;
      }
      walks.push(performance.now() - walkStarted);
    }
    const errors = bigAt100.errors + smallAt100.errors;
    process.stdout.write('| big form (500 fields, 10 pages, 200 rules) | value |\n|---|---|\n');
    process.stdout.write(`| manifest size | ${(first.length / 1024).toFixed(0)} KiB |\n`);
    process.stdout.write(`| manifest first build and serve / cached (median of 21) | ${coldMs.toFixed(0)} ms / ${warmMs.toFixed(1)} ms |\n`);
    process.stdout.write(`| whole submit at 100/s, p50/p99 | ${bigAt100.p50}/${bigAt100.p99} ms (contact: ${smallAt100.p50}/${smallAt100.p99} ms) |\n`);
    process.stdout.write(`| CPU per whole submit | ${micros(bigAt100.cpuPerRequest)} µs (contact: ${micros(smallAt100.cpuPerRequest)} µs, ×${bigAt100.cpuPerRequest && smallAt100.cpuPerRequest ? (bigAt100.cpuPerRequest / smallAt100.cpuPerRequest).toFixed(1) : 'n/a'}) |\n`);
    process.stdout.write(`| ten pages by REST, one person | median ${median(walks).toFixed(0)} ms for the whole walk |\n`);
    process.stdout.write(`| errors | ${errors} |\n\n`);
    process.stdout.write(`bench big-form manifest_kib=${(first.length / 1024).toFixed(0)} whole_p99_ms=${bigAt100.p99} cpu_us=${micros(bigAt100.cpuPerRequest)} contact_cpu_us=${micros(smallAt100.cpuPerRequest)} walk_ms=${median(walks).toFixed(0)}\n`);
  });
}

function submitRequest(port: number, cookie: string, token: string, meta: unknown): autocannon.Options {
  return {
    url: `http://127.0.0.1:${port}/svc/api/forms/contact/submit`,
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': token },
    body: JSON.stringify({ intent: 'submit', values: VALUES, meta }),
  };
}

function printTable(rows: readonly Row[]): void {
  const header = [
    'scenario', 'svc req/s', 'svc p99 ms', 'baseline req/s', 'baseline p99 ms', 'ratio',
    'svc CPU µs/req', 'baseline CPU µs/req', 'CPU ×', 'fixed rate', 'svc p50/p99 ms', 'baseline p50/p99 ms', 'errors',
  ];
  const lines = rows.map((r) => [
    r.scenario,
    r.svc.rps.toFixed(0),
    r.svc.p99.toFixed(1),
    r.baseline.rps.toFixed(0),
    r.baseline.p99.toFixed(1),
    r.ratio.toFixed(2),
    micros(r.svc.cpuPerRequest),
    micros(r.baseline.cpuPerRequest),
    r.svc.cpuPerRequest !== null && r.baseline.cpuPerRequest ? (r.svc.cpuPerRequest / r.baseline.cpuPerRequest).toFixed(2) : 'n/a',
    `${r.fixed.rate}/s`,
    `${r.fixed.svc.p50}/${r.fixed.svc.p99}`,
    `${r.fixed.baseline.p50}/${r.fixed.baseline.p99}`,
    String(r.svc.errors + r.baseline.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  process.stdout.write(`\n${fmt(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${lines.map(fmt).join('\n')}\n\n`);
  for (const r of rows) {
    process.stdout.write(
      `bench ${r.scenario} rps=${r.svc.rps.toFixed(0)} p99_ms=${r.svc.p99.toFixed(1)} baseline_rps=${r.baseline.rps.toFixed(0)} ratio=${r.ratio.toFixed(2)}` +
        ` cpu_us=${micros(r.svc.cpuPerRequest)} baseline_cpu_us=${micros(r.baseline.cpuPerRequest)} fixed_rate=${r.fixed.rate} fixed_p99_ms=${r.fixed.svc.p99} baseline_fixed_p99_ms=${r.fixed.baseline.p99}\n`,
    );
  }
}

interface ExportRow {
  readonly scenario: string;
  readonly svc: { rowsPerSecond: number; megabytes: number };
  readonly baseline: { rowsPerSecond: number; megabytes: number };
}

/**
 * Export throughput is one long response, not many small ones, so autocannon does not fit: each
 * side is downloaded whole in alternating rounds and reports its median rows/s.
 */
async function exportScenario(): Promise<ExportRow> {
  return withTargets(['svc-export', 'baseline-export'], async ([svcPort, basePort]) => {
    const svcUrl = `http://127.0.0.1:${svcPort}/svc/api/admin/forms/contact/export?format=csv`;
    const svcHeaders = { authorization: `Bearer ${EXPORT_KEY}` };
    const baseUrl = `http://127.0.0.1:${basePort}/export`;
    await download(svcUrl, svcHeaders);
    await download(baseUrl);
    const runs: { svc: { seconds: number; bytes: number }[]; baseline: { seconds: number; bytes: number }[] } = { svc: [], baseline: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.svc.push(await download(svcUrl, svcHeaders));
      runs.baseline.push(await download(baseUrl));
    }
    const summarise = (list: readonly { seconds: number; bytes: number }[]) => ({
      rowsPerSecond: EXPORT_ROWS / median(list.map((r) => r.seconds)),
      megabytes: (list[0]?.bytes ?? 0) / 1024 / 1024,
    });
    return { scenario: `export csv (${EXPORT_ROWS} rows)`, svc: summarise(runs.svc), baseline: summarise(runs.baseline) };
  });
}

function printExportTable(rows: readonly ExportRow[]): void {
  if (rows.length === 0) return;
  const header = ['scenario', 'svc rows/s', 'svc MB', 'baseline rows/s', 'baseline MB', 'ratio'];
  const lines = rows.map((r) => [
    r.scenario,
    r.svc.rowsPerSecond.toFixed(0),
    r.svc.megabytes.toFixed(1),
    r.baseline.rowsPerSecond.toFixed(0),
    r.baseline.megabytes.toFixed(1),
    (r.svc.rowsPerSecond / r.baseline.rowsPerSecond).toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  process.stdout.write(`${fmt(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${lines.map(fmt).join('\n')}\n\n`);
  for (const r of rows) {
    process.stdout.write(
      `bench ${r.scenario} rows_per_s=${r.svc.rowsPerSecond.toFixed(0)} baseline_rows_per_s=${r.baseline.rowsPerSecond.toFixed(0)} ratio=${(r.svc.rowsPerSecond / r.baseline.rowsPerSecond).toFixed(2)}\n`,
    );
  }
}

async function main(): Promise<void> {
  process.stdout.write(`svc bench: ${DURATION}s per side, ${CONNECTIONS} connections\n`);
  const only = process.argv[2];
  const rows: Row[] = [];
  const scenarios: Record<string, () => Promise<Row>> = {
    manifest: manifestScenario,
    submit: () => submitScenario(),
    'graphql-query': graphqlQueryScenario,
    'graphql-mutation': graphqlMutationScenario,
    upload: uploadScenario,
    checkpoint: checkpointScenario,
  };
  // issue #38: the submit with insights counting (the default) beside the same with them off.
  if (only === 'submit-insights') {
    rows.push(await submitScenario(['svc', 'baseline-insert'], 'submit, insights on'));
    rows.push(await submitScenario(['svc-no-insights', 'baseline-insert'], 'submit, insights off'));
    rows.push(await insightsOnOffScenario());
  }
  for (const [name, run] of Object.entries(scenarios)) {
    if (!only || only === name) rows.push(await run());
  }
  if (!only || only === 'submit-postgres') {
    const row = await withBenchPostgres((url) => submitScenario(['svc-pg', 'baseline-pg-insert'], 'submit on PostgreSQL', { BENCH_PG_URL: url }));
    if (row) rows.push(row);
  }
  if (rows.length > 0) printTable(rows);
  printExportTable(!only || only === 'export' ? [await exportScenario()] : []);
  // issue #37 item 6: the cost of sealing alone, beside the submit and export ratios it is part of.
  if (!only || only === 'submit' || only === 'export' || only === 'sealing') printSealingCost(measureSealingCost());
  if (!only || only === 'upload' || only === 'sealing') printUploadSealingCost(await measureUploadSealingCost());
  if (!only || only === 'export-memory') printExportMemory(await exportMemoryScenario());
  if (!only || only === 'weight') printWeights(await measureClientWeight());
  if (!only || only === 'hosted-page') printHostedPages(await measureHostedPages());
  if (!only || only === 'big-form') await bigFormScenario();
  if (!only || only === 'notification-lag') printLag(await notificationLagScenario());
  if (!only || only === 'console-report') printConsoleReport(await consoleReportScenario());
  if (!only || only === 'insights-report') printInsightsReport(await insightsReportScenario());
  if (!only || only === 'bulk') printBulk(await bulkScenario());
  if (!only || only === 'erasure') printErasure(await erasureScenario());
}

void main();
