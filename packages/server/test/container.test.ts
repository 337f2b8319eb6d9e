/**
 * The container image (issue #33 item 3), as docs/container.md has a user build, run, check and
 * stop it: its ```sh blocks run as written, with only the image tag, the names, the port and this
 * machine's build flags swapped. The image is built FROM a Node image made here (no image can be
 * pulled: support/container-base-image.ts), on podman with runc (support/container-podman.ts); the
 * suite skips with the reason where podman cannot run a container. compose.yaml cannot start here,
 * so it is parsed and its svc services' variables are loaded as svc's configuration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithService } from './support/service-requirements.js';
import { REPO_ROOT, runCommand, type CommandRun } from './support/svc-command.js';
import { commandBlocks, readPage } from './support/docs-blocks.js';
import { freePort, onPath, openFilesLimit, probePodman, type Podman } from './support/container-podman.js';
import { BASE_IMAGE, baseImageIsCurrent, baseImageMissingTool, ensureBaseImage, removeStaleBuilds } from './support/container-base-image.js';
import { imageEnv, loadServiceConfig, readCompose, svcServices } from './support/container-compose.js';

const PAGE = 'docs/container.md';
const TEST_IMAGE = 'localhost/svc-container-test:latest';
/** The build stage, tagged so its layers (npm install's above all) stay as the next run's cache. */
const BUILD_STAGE_IMAGE = 'localhost/svc-container-test:build';

function elapsed(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** Why the suite cannot run here, or undefined. Decided before collection (top-level await). */
async function runtimeProblem(): Promise<{ podman?: Podman; reason?: string }> {
  const podman = await probePodman();
  if ('reason' in podman) return { reason: podman.reason };
  if (!onPath('curl')) return { reason: 'curl is not installed (the page checks the server with it)' };
  if (!(await baseImageIsCurrent(podman))) {
    const missing = baseImageMissingTool();
    if (missing) return { reason: `${BASE_IMAGE} is not built and cannot be: ${missing}` };
  }
  return { podman };
}

const probeStarted = Date.now();
const runtime = await runtimeProblem();
console.log(`[container] runtime probe: ${runtime.reason ?? `podman can run containers (${runtime.podman?.storage} storage)`} (${elapsed(probeStarted)})`);

interface Swaps {
  readonly name: string;
  readonly port: number;
  readonly buildFlags: string;
}

/** The page's block for this machine; each swap must find its text, so the page cannot drift from the test. */
function forThisMachine(block: string, swaps: Swaps): string {
  const table: [RegExp, string][] = [
    [/\bsvc:local\b/g, TEST_IMAGE],
    [/\bmy-svc\b/g, swaps.name],
    [/-p 3000:3000/g, `--network=host -e PORT=${swaps.port}`],
    [/localhost:3000/g, `127.0.0.1:${swaps.port}`],
    [/^podman build /gm, `podman build ${swaps.buildFlags} `],
  ];
  return table.reduce((text, [pattern, value]) => text.replace(pattern, value), block);
}

describe('compose.yaml', () => {
  const compose = readCompose();
  const services = svcServices(compose);

  it('runs at least two svc instances built from the Containerfile, on PostgreSQL, Redis and S3', () => {
    expect(services.map(([name]) => name).length).toBeGreaterThanOrEqual(2);
    for (const [name, service] of services) {
      const { config, problems } = loadServiceConfig(compose, service);
      expect(problems, name).toEqual([]);
      expect(config?.database.url, name).toMatch(/^postgres:\/\//);
      expect(config?.redis.url, name).toMatch(/^redis:\/\//);
      expect(config?.files.store, name).toBe('s3');
      expect(config?.dataDir, name).toBe('/data');
    }
  });

  it('gives every instance the same secret, through a *_FILE variable', () => {
    const secretFiles = new Set(services.map(([, service]) => service.environment?.SVC_SECRET_FILE));
    expect([...secretFiles]).toEqual(['/run/secrets/svc_secret']);
  });

  it('finds a variable that names no configuration key, or a secret the service lacks', () => {
    const service = services[0]?.[1] ?? {};
    const misspelt = { ...service, environment: { ...service.environment, SVC_FILES__S3__BUKET: 'x' } };
    expect(loadServiceConfig(compose, misspelt).problems.join('\n')).toMatch(/SVC_FILES__S3__BUKET names no config key/);
    const unmounted = { ...service, secrets: [] };
    expect(loadServiceConfig(compose, unmounted).problems.join('\n')).toMatch(/SVC_SECRET_FILE=\/run\/secrets\/svc_secret: not/);
  });

  it('sends the proxy to every instance, and the docs write every secret file it reads', () => {
    const proxy = String(compose.services.proxy?.command ?? '');
    for (const [name] of services) expect(proxy).toContain(`--to ${name}:3000`);
    const page = readPage(PAGE);
    for (const [name, secret] of Object.entries(compose.secrets ?? {})) {
      expect(secret.file, name).toMatch(/^\.\/secrets\//);
      expect(page, `${PAGE} writes ${secret.file}`).toContain(`> ${(secret.file as string).slice(2)}`);
    }
  });

  it('reads the image ENV the Containerfile sets', () => {
    expect(imageEnv()).toEqual({ NODE_ENV: 'production', SVC_DATA_DIR: '/data' });
  });
});

describeWithService('the container image (podman with runc)', runtime.podman ? 'podman' : undefined, runtime.reason ?? '', () => {
  const podman = runtime.podman as Podman;
  const [build, start, check, stop] = commandBlocks(PAGE);
  const name = `svc-test-${process.pid}-${Date.now().toString(36)}`;
  let project: string;
  let swaps: Swaps;

  const sh = (block: string, cwd: string, timeoutMs: number): Promise<CommandRun> =>
    runCommand('bash', ['-e', '-c', forThisMachine(block, swaps)], { cwd, env: podman.env, timeoutMs });
  const explain = (run: CommandRun) => `exit ${run.status}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;

  beforeAll(async () => {
    expect([build, start, check, stop].every(Boolean), `${PAGE} has four command blocks`).toBe(true);
    expect(build, 'the build block tags svc:local').toContain('-t svc:local');
    let since = Date.now();
    const made = await ensureBaseImage(podman);
    console.log(`[container] base image ${BASE_IMAGE}: ${made} (${elapsed(since)})`);
    const npmCache = process.env.npm_config_cache || join(homedir(), '.npm');
    mkdirSync(npmCache, { recursive: true });
    const files = await openFilesLimit();
    swaps = {
      name,
      port: await freePort(),
      // The registry through the host's network and npm cache; npm opens more files than podman's
      // default allows; the base image made here instead of the official one.
      buildFlags: `--network=host --ulimit nofile=${files}:${files} --volume ${npmCache}:/var/cache/npm --build-arg NODE_IMAGE=${BASE_IMAGE}`,
    };
    const before = await podman.run(['image', 'inspect', '--format', '{{.Id}}', TEST_IMAGE]);
    since = Date.now();
    const buildStarted = new Date();
    const stage = await sh((build as string).replace('-t svc:local', `--target build -t ${BUILD_STAGE_IMAGE}`), REPO_ROOT, 2_400_000);
    console.log(`[container] podman build --target build: exit ${stage.status} (${elapsed(since)})`);
    expect(stage.status, explain(stage)).toBe(0);
    since = Date.now();
    const built = await sh(build as string, REPO_ROOT, 2_400_000);
    console.log(`[container] podman build: exit ${built.status} (${elapsed(since)})`);
    expect(built.status, explain(built)).toBe(0);
    // The previous build of this tag, now untagged, goes; its layers stay as the next build's cache.
    // (A build that changed nothing gives the same image, which stays.)
    const after = await podman.run(['image', 'inspect', '--format', '{{.Id}}', TEST_IMAGE]);
    const previous = before.stdout.trim();
    if (before.status === 0 && previous && previous !== after.stdout.trim()) await podman.run(['rmi', previous]);
    console.log(`[container] stale build layers removed: ${await removeStaleBuilds(podman, buildStarted)}`);
    project = mkdtempSync(join(tmpdir(), 'svc-container-'));
  }, 3_000_000);

  afterAll(async () => {
    await podman.run(['rm', '-f', '-t', '0', name]);
    await podman.run(['volume', 'rm', '-f', `${name}-data`]);
    await podman.run(['secret', 'rm', `${name}-secret`]);
    if (project && existsSync(project)) rmSync(project, { recursive: true, force: true });
  });

  it('is built to run as a non-root user, with a HEALTHCHECK on /readyz, a /data volume and port 3000', async () => {
    const inspect = await podman.run(['image', 'inspect', TEST_IMAGE]);
    expect(inspect.status, explain(inspect)).toBe(0);
    // The OCI config has no health check; podman keeps it beside (from a --format docker build).
    const [image] = JSON.parse(inspect.stdout) as { Healthcheck?: { Test: string[] }; Config: { User: string; Volumes: Record<string, unknown>; ExposedPorts: Record<string, unknown>; Entrypoint: string[]; Env: string[] } }[];
    const config = image?.Config;
    if (!config) throw new Error(`podman image inspect said nothing of ${TEST_IMAGE}`);
    expect(config.User).toBe('10001:10001');
    expect(image?.Healthcheck?.Test.join(' ')).toContain('/readyz');
    expect(Object.keys(config.Volumes)).toEqual(['/data']);
    expect(Object.keys(config.ExposedPorts)).toEqual(['3000/tcp']);
    expect(config.Entrypoint[0]).toBe('node');
    expect(config.Env).toContain('NODE_ENV=production');
  });

  it('runs as the page says, serves the manifest as uid 10001, is healthy, and exits 0 on SIGTERM', async () => {
    let since = Date.now();
    const started = await sh(start as string, project, 120_000);
    expect(started.status, explain(started)).toBe(0);
    const base = `http://127.0.0.1:${swaps.port}`;
    // Ready when /readyz says so; a container that stopped instead fails at once with its log.
    for (;;) {
      const ready = await fetch(`${base}/readyz`).then((res) => res.status, () => 0);
      if (ready === 200) break;
      const state = await podman.run(['inspect', '--format', '{{.State.Running}}', name]);
      if (state.stdout.trim() !== 'true') {
        const logs = await podman.run(['logs', name]);
        throw new Error(`the container stopped before it was ready:\n${logs.stdout}\n${logs.stderr}`);
      }
      if (Date.now() - since > 150_000) throw new Error(`not ready after ${elapsed(since)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    console.log(`[container] run until /readyz answered 200: ${elapsed(since)}`);

    since = Date.now();
    const checked = await sh(check as string, project, 120_000);
    console.log(`[container] the page's checks: ${elapsed(since)}`);
    expect(checked.status, explain(checked)).toBe(0);
    expect(checked.stdout).toContain('"status":"ready"');
    const lines = checked.stdout.trim().split('\n');
    const manifest = JSON.parse(lines.find((line) => line.startsWith('{"success"')) ?? '{}') as { success?: boolean };
    expect(manifest.success).toBe(true);
    expect(JSON.stringify(manifest)).toContain('"handle":"firstName"');
    expect(lines).toContain('10001');
    expect(lines.at(-1)).toBe('healthy');

    since = Date.now();
    const stopped = await sh(stop as string, project, 120_000);
    console.log(`[container] podman stop (SIGTERM): ${elapsed(since)}`);
    expect(stopped.status, explain(stopped)).toBe(0);
    expect(stopped.stdout.trim().split('\n').at(-1)).toBe('0');
    // Exit 0 could also be a process that ignored the signal and ended anyway: the log says it drained.
    const logs = await podman.run(['logs', name]);
    expect(logs.stdout).toMatch(/"signal":"SIGTERM".*"msg":"shutting down"/);
  }, 600_000);
});
