import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { defaultServerConditions } from 'vite';

const require = createRequire(import.meta.url);

// The workspace packages export their TypeScript sources under this condition (their default is
// dist/), so tests run what is in src/ without a build. The rest is Vitest's own default (Vite's
// server conditions without `module`, which would pick ESM builds Node cannot load).
const TEST_CONDITIONS = ['svc-source', ...defaultServerConditions.filter((condition) => condition !== 'module')];

export default defineConfig({
  resolve: {
    // graphql ships CJS and ESM builds; Vite would pick the ESM one for our imports while mercurius
    // requires the CJS one, and graphql refuses schemas "from another module or realm". Node's
    // own resolution already picks the CJS build for both; make tests do the same.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
    conditions: TEST_CONDITIONS,
  },
  ssr: { resolve: { conditions: TEST_CONDITIONS } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // The packages are built once first: the svc a test starts as a child runs dist/ (build-once.ts).
    globalSetup: ['packages/server/test/support/build-once.ts'],
    // Deadlines for hangs, not for speed: a suite that started svc from source (about 5 s of CPU
    // through tsx) took 25-50 s on two cores shared with other work, past the 20 s it had.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Suites that share PostgreSQL create their own databases, so files may run in parallel.
    pool: 'forks',
    // A fresh process per file imported the service's module graph again for every file (collect
    // was half the time). Files build their own apps, databases and directories, so they share a
    // worker's modules: eight server files took 62 s of CPU isolated and 20 s not (core and
    // client 45 -> 20 s), measured with the machine loaded alike.
    isolate: false,
    // Two files at a time on two cores: one worker (vitest's default here, the cores less one) left
    // a core idle while its file waited on a child process or Chromium. Whole suite on this
    // machine, idle: 9 min 58 s with one worker, 8 min 16 s with two (11 min 37 s of CPU).
    maxWorkers: 2,
    minWorkers: 1,
    // issue #16: every answer of every HTTP suite is checked against the OpenAPI document.
    env: { SVC_OPENAPI_STRICT: '1' },
  },
});
