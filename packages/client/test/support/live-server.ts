/**
 * The real svc app (packages/server's createTestApp) listening on a real port, and a client wired
 * to it through a cookie jar and a fetch probe: what a Node caller of @svc/client would run.
 */
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createClient, type ClientOptions, type SvcClient } from '../../src/index.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../../../server/test/support/test-app.js';
import { openSubmissionColumns } from '../../../server/src/privacy/privacy-sealer.js';
import { createCookieJarFetch, type CookieJarFetch } from './cookie-jar-fetch.js';
import { createFetchProbe, type FetchProbe } from './fetch-probe.js';

export const FILE_FORMS_DIR = resolve(import.meta.dirname, '../../../server/test/fixtures/file-forms');

export interface LiveServer {
  readonly svc: TestApp;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly baseUrl: string;
  close(): Promise<void>;
}

export async function startLiveServer(options: TestAppOptions = {}): Promise<LiveServer> {
  const svc = await createTestApp(options);
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = svc.app.server.address() as AddressInfo;
  return { svc, baseUrl: `http://127.0.0.1:${port}`, close: () => svc.close() };
}

export interface ProbedClient {
  readonly client: SvcClient;
  readonly probe: FetchProbe;
  readonly jar: CookieJarFetch;
}

/** A fresh client (own CSRF cache, own cookies) whose requests are recorded by `probe`. */
export function probedClient(baseUrl: string, options: Partial<ClientOptions> = {}): ProbedClient {
  const jar = createCookieJarFetch();
  const probe = createFetchProbe(jar.fetch);
  const client = createClient({ baseUrl, fetch: probe.fetch, ...options });
  return { client, probe, jar };
}

/** The stored row, its values and title opened (they are sealed at rest, issue #37) as the JSON and text they were. */
export async function submissionRow(svc: TestApp, id: number) {
  const row = await svc.context.database.db.selectFrom('svc_submissions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const opened = openSubmissionColumns(svc.context.sealer, row);
  return { ...row, values: opened.values ?? '', title: opened.title ?? '' };
}

export async function submissionCount(svc: TestApp, handle: string): Promise<number> {
  const formId = svc.context.forms.get(handle)?.id ?? -1;
  const row = await svc.context.database.db
    .selectFrom('svc_submissions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('form_id', '=', formId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
