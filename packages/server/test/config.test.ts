/**
 * loadConfig: file (YAML or JSON) -> SVC_* overrides -> defaults -> validation, every problem
 * reported at once, a development/demo secret generated once, and a frozen result. `env` is always
 * passed explicitly; process.env is never touched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../src/config/config-loader.js';
import type { Config } from '../src/config/config-schema.js';
import { TEST_SECRET } from './support/test-app.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-config-test-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let fileCounter = 0;
function writeTemp(name: string, text: string): string {
  fileCounter += 1;
  const file = join(dir, `${fileCounter}-${name}`);
  writeFileSync(file, text);
  return file;
}

function freshDir(name: string): string {
  fileCounter += 1;
  return join(dir, `${fileCounter}-${name}`);
}

/** The ConfigError `load` throws; fails the test when it throws nothing or something else. */
function configError(load: () => unknown): ConfigError {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError, but the configuration loaded');
}

function withSecret(env: Record<string, string> = {}): Record<string, string> {
  return { SVC_SECRET: TEST_SECRET, ...env };
}

describe('loadConfig defaults', () => {
  it('fills every key with its default', () => {
    const config = loadConfig({ file: null, env: withSecret() });
    expect(config).toMatchObject({
      server: { host: '0.0.0.0', port: 3000, publicUrl: null, trustProxy: false, bodyLimitKB: 256 },
      secret: TEST_SECRET,
      database: { url: null, poolSize: 10 },
      headless: { enabled: true, allowedOrigins: [], forms: {}, profiles: {} },
      csrf: { enabled: true, cookieName: 'svc_csrf', sameSite: 'lax', ttlMinutes: 1440 },
      log: { level: 'info' },
      demo: false,
    });
    expect(config.submissions.statuses.map((s) => s.handle)).toEqual(['open', 'pending', 'closed']);
  });

  it('resolves dataDir and forms.dir to absolute paths', () => {
    const config = loadConfig({ file: null, env: withSecret() });
    expect(config.dataDir).toBe(resolve('./data'));
    expect(config.forms.dir).toBe(resolve('./forms'));
    const relative = loadConfig({ file: null, env: withSecret(), values: { dataDir: 'var/svc', forms: { dir: 'defs' } } });
    expect(relative.dataDir).toBe(resolve('var/svc'));
    expect(relative.forms.dir).toBe(resolve('defs'));
  });

  it('fills the defaults of a per-form headless entry', () => {
    const config = loadConfig({ file: null, env: withSecret(), values: { headless: { forms: { contact: { allowSubmit: true } } } } });
    expect(config.headless.forms.contact).toEqual({ exposeManifest: false, allowSubmit: true, allowedOrigins: [] });
  });
});

describe('SVC_* environment overrides', () => {
  it.each<[string, Record<string, string>, (config: Config) => unknown, unknown]>([
    ['SVC_SERVER__PORT sets server.port as a number', { SVC_SERVER__PORT: '8080' }, (c) => c.server.port, 8080],
    ['SVC_HEADLESS__ENABLED=false switches headless off', { SVC_HEADLESS__ENABLED: 'false' }, (c) => c.headless.enabled, false],
    [
      'SVC_HEADLESS__ALLOWED_ORIGINS reads a comma list',
      { SVC_HEADLESS__ALLOWED_ORIGINS: 'https://a.test, https://*.b.test' },
      (c) => c.headless.allowedOrigins,
      ['https://a.test', 'https://*.b.test'],
    ],
    [
      'SVC_HEADLESS__ALLOWED_ORIGINS reads a JSON list',
      { SVC_HEADLESS__ALLOWED_ORIGINS: '["https://a.test","https://*.b.test"]' },
      (c) => c.headless.allowedOrigins,
      ['https://a.test', 'https://*.b.test'],
    ],
    ['an empty SVC_HEADLESS__ALLOWED_ORIGINS is an empty list', { SVC_HEADLESS__ALLOWED_ORIGINS: '' }, (c) => c.headless.allowedOrigins, []],
    [
      'SVC_HEADLESS__FORMS__KITCHEN_SINK__ALLOW_SUBMIT keeps the handle kebab-case',
      { SVC_HEADLESS__FORMS__KITCHEN_SINK__ALLOW_SUBMIT: 'true' },
      (c) => c.headless.forms['kitchen-sink'],
      { exposeManifest: false, allowSubmit: true, allowedOrigins: [] },
    ],
    [
      'a per-form allowed-origins list',
      { SVC_HEADLESS__FORMS__CONTACT__ALLOWED_ORIGINS: 'https://contact.test' },
      (c) => c.headless.forms.contact?.allowedOrigins,
      ['https://contact.test'],
    ],
    ['SVC_CSRF__SAME_SITE sets an enum', { SVC_CSRF__SAME_SITE: 'none' }, (c) => c.csrf.sameSite, 'none'],
    ['SVC_CSRF__TTL_MINUTES sets an integer', { SVC_CSRF__TTL_MINUTES: '5' }, (c) => c.csrf.ttlMinutes, 5],
    ['SVC_SERVER__TRUST_PROXY sets a boolean', { SVC_SERVER__TRUST_PROXY: 'true' }, (c) => c.server.trustProxy, true],
    [
      'SVC_SERVER__PUBLIC_URL sets a URL',
      { SVC_SERVER__PUBLIC_URL: 'https://forms.example.com' },
      (c) => c.server.publicUrl,
      'https://forms.example.com',
    ],
    ['SVC_LOG__LEVEL sets the log level', { SVC_LOG__LEVEL: 'debug' }, (c) => c.log.level, 'debug'],
    ['SVC_DATA_DIR maps a snake_case top-level key', { SVC_DATA_DIR: '/srv/svc-data' }, (c) => c.dataDir, resolve('/srv/svc-data')],
    [
      'SVC_DATABASE__URL sets a nested string',
      { SVC_DATABASE__URL: 'sqlite::memory:' },
      (c) => c.database.url,
      'sqlite::memory:',
    ],
    ['PORT overrides server.port', { PORT: '8081' }, (c) => c.server.port, 8081],
    ['an empty PORT is ignored', { PORT: '' }, (c) => c.server.port, 3000],
    ['SVC_CONFIG and SVC_TEST_* are not config keys', { SVC_TEST_DATABASE: 'x', SVC_TEST_WHATEVER: '1' }, (c) => c.server.port, 3000],
  ])('%s', (_title, env, read, expected) => {
    const config = loadConfig({ file: null, env: withSecret(env) });
    expect(read(config)).toEqual(expected);
  });

  it('lets environment overrides win over the config file', () => {
    const file = writeTemp('svc.config.yaml', 'server:\n  port: 4000\n  host: 127.0.0.1\n');
    const config = loadConfig({ file, env: withSecret({ SVC_SERVER__PORT: '5000' }) });
    expect(config.server.port).toBe(5000);
    expect(config.server.host).toBe('127.0.0.1');
  });

  it('lets PORT win over the config file', () => {
    const file = writeTemp('svc.config.yaml', 'server:\n  port: 4000\n');
    expect(loadConfig({ file, env: withSecret({ PORT: '8082' }) }).server.port).toBe(8082);
  });

  it('reads SVC_SECRET_FILE from a file and strips the trailing newline', () => {
    const secret = 'file-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
    const file = writeTemp('secret', `${secret}\n`);
    expect(loadConfig({ file: null, env: { SVC_SECRET_FILE: file } }).secret).toBe(secret);
  });

  it('strips a CRLF line end from a _FILE value', () => {
    const secret = 'crlf-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
    const file = writeTemp('secret', `${secret}\r\n`);
    expect(loadConfig({ file: null, env: { SVC_SECRET_FILE: file } }).secret).toBe(secret);
  });

  it('reads any key from a _FILE variable', () => {
    const file = writeTemp('url', 'sqlite::memory:\n');
    expect(loadConfig({ file: null, env: withSecret({ SVC_DATABASE__URL_FILE: file }) }).database.url).toBe('sqlite::memory:');
  });

  it('reports a _FILE variable whose file cannot be read', () => {
    const missing = join(dir, 'no-such-secret-file');
    const error = configError(() => loadConfig({ file: null, env: { SVC_SECRET_FILE: missing } }));
    // One report: the unreadable file, and so no secret either.
    expect(error.problems).toEqual([expect.stringContaining('SVC_SECRET_FILE'), expect.stringContaining('secret: required')]);
  });

  it.each(['SVC_NOPE', 'SVC_SERVER__PROT', 'SVC_HEADLESS__FORMS__CONTACT__ALLOW', 'SVC_CSRF__ENABLED__DEEPER'])(
    'reports the unknown variable %s',
    (name) => {
      const error = configError(() => loadConfig({ file: null, env: withSecret({ [name]: '1' }) }));
      expect(error.problems).toEqual([expect.stringContaining(name)]);
      expect(error.message).toContain(name);
    },
  );

  it('reports a value that cannot be coerced to the key type', () => {
    const error = configError(() => loadConfig({ file: null, env: withSecret({ SVC_SERVER__PORT: 'eighty' }) }));
    expect(error.problems).toEqual([expect.stringMatching(/^server\.port: .*integer/)]);
  });
});

describe('problems are reported together', () => {
  it('reports a bad port, an unknown file key, a bad enum and an unknown variable in one ConfigError', () => {
    const file = writeTemp(
      'svc.config.yaml',
      ['server:', '  port: 70000', 'unknownKey: 1', 'csrf:', '  sameSite: sometimes', ''].join('\n'),
    );
    const error = configError(() => loadConfig({ file, env: withSecret({ SVC_NOPE: 'x' }) }));
    expect(error.name).toBe('ConfigError');
    expect(error.problems).toHaveLength(4);
    expect(error.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^server\.port: /),
        expect.stringContaining('unknownKey'),
        expect.stringMatching(/^csrf\.sameSite: .*lax, strict, none/),
        expect.stringContaining('SVC_NOPE'),
      ]),
    );
    for (const problem of error.problems) expect(error.message).toContain(problem);
  });

  it('reports problems inside a per-form entry with their path', () => {
    const error = configError(() =>
      loadConfig({
        file: null,
        env: withSecret(),
        values: { headless: { forms: { contact: { allowSubmit: 'sometimes', exposeManifest: true, extra: 1 } } } },
      }),
    );
    expect(error.problems).toHaveLength(2);
    expect(error.problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^headless\.forms\.contact\.allowSubmit: /), expect.stringContaining('extra')]),
    );
  });
});

describe('server.publicUrl in production (issue #32)', () => {
  it('is required under NODE_ENV=production, in one clear line, so no link is built from the Host header', () => {
    const error = configError(() => loadConfig({ file: null, env: { NODE_ENV: 'production', SVC_SECRET: TEST_SECRET }, values: { dataDir: freshDir('data') } }));
    expect(error.problems).toEqual([expect.stringMatching(/^server\.publicUrl: required when NODE_ENV=production/)]);
  });

  it('is enough when set in the file or as SVC_SERVER__PUBLIC_URL; development and offline commands do without it', () => {
    const dataDir = freshDir('data');
    const production = { NODE_ENV: 'production', SVC_SECRET: TEST_SECRET };
    expect(loadConfig({ file: null, env: production, values: { dataDir, server: { publicUrl: 'https://forms.example.test' } } }).server.publicUrl).toBe('https://forms.example.test');
    expect(loadConfig({ file: null, env: { ...production, SVC_SERVER__PUBLIC_URL: 'https://forms.example.test' }, values: { dataDir } }).server.publicUrl).toBe('https://forms.example.test');
    expect(loadConfig({ file: null, env: production, values: { dataDir }, offline: true }).server.publicUrl).toBeNull();
    expect(loadConfig({ file: null, env: { NODE_ENV: 'development' }, values: { dataDir } }).server.publicUrl).toBeNull();
  });
});

describe('the server secret', () => {
  it.each([{}, { NODE_ENV: 'production' }, { NODE_ENV: 'test' }])('is required outside development (env %j)', (env) => {
    const dataDir = freshDir('data');
    const error = configError(() => loadConfig({ file: null, env, values: { dataDir, server: { publicUrl: 'https://forms.example.test' } } }));
    expect(error.problems).toEqual([expect.stringContaining('secret')]);
    expect(existsSync(join(dataDir, 'secret'))).toBe(false);
  });

  it('refuses a secret shorter than 32 characters', () => {
    const error = configError(() => loadConfig({ file: null, env: { SVC_SECRET: 'too-short' } }));
    expect(error.problems.length).toBeGreaterThan(0);
    for (const problem of error.problems) expect(problem).toMatch(/^secret: /);
    expect(error.problems).toContainEqual(expect.stringContaining('32'));
  });

  it('is generated once under NODE_ENV=development and kept in <dataDir>/secret', () => {
    const dataDir = freshDir('dev-data');
    const first = loadConfig({ file: null, env: { NODE_ENV: 'development' }, values: { dataDir } });
    expect(typeof first.secret).toBe('string');
    expect((first.secret ?? '').length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, 'secret'), 'utf8').trim()).toBe(first.secret);
    const second = loadConfig({ file: null, env: { NODE_ENV: 'development' }, values: { dataDir } });
    expect(second.secret).toBe(first.secret);
  });

  it('is generated once for the demo and kept in <dataDir>/secret', () => {
    const dataDir = freshDir('demo-data');
    const first = loadConfig({ file: null, demo: true, env: {}, values: { dataDir } });
    expect(first.demo).toBe(true);
    expect((first.secret ?? '').length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, 'secret'), 'utf8').trim()).toBe(first.secret);
    expect(loadConfig({ file: null, demo: true, env: {}, values: { dataDir } }).secret).toBe(first.secret);
  });

  it('gives each data directory its own generated secret', () => {
    const a = loadConfig({ file: null, env: { NODE_ENV: 'development' }, values: { dataDir: freshDir('a') } });
    const b = loadConfig({ file: null, env: { NODE_ENV: 'development' }, values: { dataDir: freshDir('b') } });
    expect(a.secret).not.toBe(b.secret);
  });

  it('uses a configured secret in development and writes no secret file', () => {
    const dataDir = freshDir('dev-configured');
    const config = loadConfig({ file: null, env: { NODE_ENV: 'development', SVC_SECRET: TEST_SECRET }, values: { dataDir } });
    expect(config.secret).toBe(TEST_SECRET);
    expect(existsSync(join(dataDir, 'secret'))).toBe(false);
  });
});

describe('config files', () => {
  it('loads a YAML file', () => {
    const file = writeTemp(
      'svc.config.yaml',
      [
        'server:',
        '  port: 4321',
        '  bodyLimitKB: 64',
        'headless:',
        '  allowedOrigins:',
        '    - https://app.example.test',
        '  forms:',
        '    kitchen-sink:',
        '      exposeManifest: true',
        'csrf:',
        '  enabled: false',
        '',
      ].join('\n'),
    );
    const config = loadConfig({ file, env: withSecret() });
    expect(config.server).toMatchObject({ port: 4321, bodyLimitKB: 64, host: '0.0.0.0' });
    expect(config.headless.allowedOrigins).toEqual(['https://app.example.test']);
    expect(config.headless.forms['kitchen-sink']).toEqual({ exposeManifest: true, allowSubmit: false, allowedOrigins: [] });
    expect(config.csrf.enabled).toBe(false);
  });

  it('loads a JSON file', () => {
    const file = writeTemp('svc.config.json', JSON.stringify({ server: { port: 4322 }, log: { level: 'warn' } }));
    const config = loadConfig({ file, env: withSecret() });
    expect(config.server.port).toBe(4322);
    expect(config.log.level).toBe('warn');
  });

  it('treats an empty YAML file as no settings', () => {
    const file = writeTemp('svc.config.yaml', '# nothing yet\n');
    expect(loadConfig({ file, env: withSecret() }).server.port).toBe(3000);
  });

  it('finds the file named by SVC_CONFIG', () => {
    const file = writeTemp('svc.config.yaml', 'server:\n  port: 4323\n');
    expect(loadConfig({ env: withSecret({ SVC_CONFIG: file }) }).server.port).toBe(4323);
  });

  it('lays `values` over the file', () => {
    const file = writeTemp('svc.config.yaml', 'server:\n  port: 4324\n  host: 127.0.0.1\n');
    const config = loadConfig({ file, env: withSecret(), values: { server: { port: 4325 } } });
    expect(config.server).toMatchObject({ port: 4325, host: '127.0.0.1' });
  });

  it('reports a config file that cannot be read', () => {
    const missing = join(dir, 'missing.yaml');
    const error = configError(() => loadConfig({ file: missing, env: withSecret() }));
    expect(error.problems).toEqual([expect.stringContaining(missing)]);
  });

  it('reports a config file that is not valid YAML', () => {
    const file = writeTemp('broken.yaml', 'server:\n  port: [1, 2\n');
    const error = configError(() => loadConfig({ file, env: withSecret() }));
    expect(error.problems).toEqual([expect.stringContaining(file)]);
  });

  it('reports a config file that is not valid JSON', () => {
    const file = writeTemp('broken.json', '{"server": ');
    const error = configError(() => loadConfig({ file, env: withSecret() }));
    expect(error.problems).toEqual([expect.stringContaining(file)]);
  });

  it('reports a config file that is a list instead of a mapping', () => {
    const file = writeTemp('list.yaml', '- a\n- b\n');
    const error = configError(() => loadConfig({ file, env: withSecret() }));
    expect(error.problems).toEqual([expect.stringContaining('mapping')]);
  });
});

describe('the loaded config', () => {
  it('is deeply frozen', () => {
    const config = loadConfig({ file: null, env: withSecret({ SVC_HEADLESS__FORMS__CONTACT__ALLOW_SUBMIT: 'true' }) });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.server)).toBe(true);
    expect(Object.isFrozen(config.headless.forms)).toBe(true);
    expect(Object.isFrozen(config.headless.forms.contact)).toBe(true);
    expect(Object.isFrozen(config.headless.allowedOrigins)).toBe(true);
    expect(Object.isFrozen(config.submissions.statuses[0])).toBe(true);
    expect(() => {
      (config.server as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(() => {
      (config.headless.allowedOrigins as string[]).push('https://late.test');
    }).toThrow(TypeError);
    expect(config.server.port).toBe(3000);
  });

  it('does not share state between loads', () => {
    const values = { headless: { allowedOrigins: ['https://a.test'] } };
    const first = loadConfig({ file: null, env: withSecret(), values });
    const second = loadConfig({ file: null, env: withSecret({ SVC_HEADLESS__ALLOWED_ORIGINS: 'https://b.test' }), values });
    expect(first.headless.allowedOrigins).toEqual(['https://a.test']);
    expect(second.headless.allowedOrigins).toEqual(['https://b.test']);
    expect(values.headless.allowedOrigins).toEqual(['https://a.test']);
  });
});

describe('config checks found in review', () => {
  const env = { SVC_SECRET: 'x'.repeat(40) };
  it('rejects a headless.forms key that is not a form handle', () => {
    expect(() => loadConfig({ file: null, env, values: { headless: { forms: { Contact_Form: {} } } } })).toThrow(/headless\.forms/);
  });
  it.each(['app.example.com', 'https://app.example.com/path', 'https://*', 'https://*.*'])('rejects the origin entry %s', (entry) => {
    expect(() => loadConfig({ file: null, env, values: { headless: { allowedOrigins: [entry] } } })).toThrow(/is not an origin/);
  });
  it('reports a short secret once', () => {
    try {
      loadConfig({ file: null, env: { SVC_SECRET: 'short' } });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^secret: /)]);
    }
  });
});
