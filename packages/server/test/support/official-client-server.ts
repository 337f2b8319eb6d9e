/**
 * The live server the official-client suites talk to (job-application exposed too), started for
 * a suite, and a fresh "browser" (own cookie jar) on a given page URL for each flow.
 */
import { afterAll, beforeAll } from 'vitest';
import { createCookieJarFetch } from '../../../client/test/support/cookie-jar-fetch.js';
import { startLiveServer, type LiveServer } from '../../../client/test/support/live-server.js';
import { createOfficialClient, type OfficialClient } from './official-client.js';

export interface OfficialServer {
  /** The running server; only inside tests and hooks. */
  readonly live: LiveServer;
  /** A new official client in a new browser (cookie jar) on the suite's page. */
  browser(): OfficialClient;
}

export function useOfficialServer(pageUrl: string): OfficialServer {
  let live: LiveServer | undefined;
  beforeAll(async () => {
    live = await startLiveServer({ config: { headless: { forms: { 'job-application': { exposeManifest: true, allowSubmit: true } } } } });
  });
  afterAll(async () => {
    await live?.close();
  });
  const running = (): LiveServer => {
    if (!live) throw new Error('The official-client server is used before its suite started it.');
    return live;
  };
  return {
    get live() {
      return running();
    },
    browser: () => createOfficialClient({ baseUrl: running().baseUrl, fetch: createCookieJarFetch().fetch, pageUrl }),
  };
}
