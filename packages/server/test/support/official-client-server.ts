/**
 * The live server the official-client suites talk to (job-application exposed too), started for
 * a suite, and a fresh "browser" (own cookie jar) on a given page URL for each flow.
 */
import { afterAll, beforeAll } from 'vitest';
import { createCookieJarFetch } from '../../../client/test/support/cookie-jar-fetch.js';
import { startLiveServer, type LiveServer } from '../../../client/test/support/live-server.js';
import { deepMerge } from '../../src/config/config-loader.js';
import { createOfficialClient, type OfficialClient } from './official-client.js';

export interface OfficialServer {
  /** The running server; only inside tests and hooks. */
  readonly live: LiveServer;
  /** A new official client in a new browser (cookie jar) on the suite's page. */
  browser(): OfficialClient;
}

/** `config`: more settings for the suite's server (deep-merged over the test defaults), made once it starts. */
export function useOfficialServer(pageUrl: string, config: () => Record<string, unknown> = () => ({})): OfficialServer {
  let live: LiveServer | undefined;
  beforeAll(async () => {
    const forms = { 'job-application': { exposeManifest: true, allowSubmit: true } };
    live = await startLiveServer({ config: deepMerge({ headless: { forms } }, config()) });
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
