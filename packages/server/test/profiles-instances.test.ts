/**
 * A single-use profile link across instances (issue #13): two server processes on one PostgreSQL
 * database each receive the same link's submit at once; exactly one submission is stored and the
 * other answers 409 TOKEN_SPENT.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { stringify as toYaml } from 'yaml';
import { describeWithService, postgresUrl } from './support/service-requirements.js';
import { createScratchDatabase, type ScratchDatabase } from './support/postgres-database.js';
import { killAllServers, startServer, type ServerProcess } from './support/server-process.js';
import { EXAMPLE_FORMS_DIR } from './support/test-app.js';
import { createLinkTokens } from '../src/profiles/profile-link-tokens.js';

const SECRET = 'profiles-instances-secret-0123456789abcdefghij';
const PERSON = { firstName: 'Ann', email: 'ann@example.test', message: 'Hi' };

describeWithService('single-use links across two instances', postgresUrl(), 'SVC_TEST_POSTGRES_URL is not set', (adminUrl) => {
  let scratch: ScratchDatabase;
  let dir: string;
  let servers: ServerProcess[];
  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl);
    dir = mkdtempSync(join(tmpdir(), 'svc-profiles-instances-'));
    const configFile = join(dir, 'svc.config.yaml');
    writeFileSync(
      configFile,
      toYaml({
        secret: SECRET,
        dataDir: join(dir, 'data'),
        database: { url: scratch.url },
        forms: { dir: EXAMPLE_FORMS_DIR, watch: false },
        server: { port: 0, host: '127.0.0.1' },
        rateLimit: { enabled: false },
        deliveries: { enabled: false },
        headless: {
          profiles: {
            feedback: { form: 'contact', requiresSignedToken: true, singleUse: true, properties: { eventId: { type: 'integer', required: true } } },
          },
        },
      }),
    );
    // One boots (and migrates) first; the second joins the migrated database.
    const first = await startServer({ cwd: dir, configFile, name: 'a' });
    servers = [first, await startServer({ cwd: dir, configFile, name: 'b' })];
  });
  afterAll(async () => {
    await killAllServers();
    await scratch?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('stores one submission when both instances receive the same link at once', async () => {
    const links = createLinkTokens(SECRET, { kid: 'k1', acceptedKids: [], defaultTtlHours: 1 });
    const manifest = (await (await fetch(`${servers[0]!.base}/svc/api/forms/contact/manifest`)).json().catch(() => null)) as { data?: { security: Record<string, any> } } | null;
    const security = manifest?.data?.security;
    const meta = security ? { honeypot: { name: security.honeypot.name, value: '' }, javascriptTest: security.javascriptTest } : {};
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    try {
      for (let round = 0; round < 5; round++) {
        const token = await links.sign({ profile: 'feedback', properties: { eventId: round }, ttlSeconds: 600, singleUse: true });
        const body = JSON.stringify({ intent: 'submit', values: PERSON, meta, context: { token } });
        const answers = await Promise.all(
          [...servers, ...servers].map((server) =>
            fetch(`${server.base}/svc/api/manifests/feedback/submit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.status),
          ),
        );
        expect(answers.sort()).toEqual([200, 409, 409, 409]);
      }
      const { rows } = await db.query("select count(*)::int as n from svc_submissions where profile is not null");
      expect(rows[0].n).toBe(5);
    } finally {
      await db.end();
    }
  });
});
