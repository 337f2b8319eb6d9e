/**
 * Loads the configuration once at boot: file (YAML or JSON) -> SVC_* overrides -> defaults ->
 * validation. Every problem is collected and reported together, then the result is frozen.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigSchema, type Config } from './config-schema.js';
import { applyEnvOverrides } from './config-env.js';
import { createAjv } from '../http/ajv-factory.js';
import { assetPath } from '../package-assets.js';
import { isValidOriginEntry } from '../security/origin-policy.js';
import { ipEntryProblem } from '../security/ip-ranges.js';
import { siteProblems } from './config-sites.js';
import { themeProblems, type HostedTheme } from '../hosted/hosted-theme.js';
import { privacyKeyProblems, type PrivacyKeysConfig } from '../privacy/privacy-config.js';

import { ConfigError } from './config-error.js';

export { ConfigError };

export interface LoadConfigOptions {
  /** Config file; null for none. Defaults to SVC_CONFIG, then ./svc.config.yaml when present. */
  readonly file?: string | null;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The demo (`npm start`): example config and a generated secret are fine. */
  readonly demo?: boolean;
  /** Values merged over the file before env overrides (tests, embedding). */
  readonly values?: Record<string, unknown>;
  /**
   * A command that serves nobody (migrate, export, purge, lists): without a configured secret
   * it uses the one a demo or development run kept, else one of its own for this run.
   */
  readonly offline?: boolean;
}

const validate = createAjv({ useDefaults: true, coerceTypes: true }).compile(ConfigSchema);

function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError([`cannot read config file ${file}`]);
  }
  let parsed: unknown;
  try {
    parsed = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError([`${file}: ${(error as Error).message.split('\n')[0]}`]);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError([`${file}: the config must be a mapping of keys`]);
  }
  return resolveFilePaths(parsed as Record<string, unknown>, dirname(resolve(file)));
}

/**
 * Paths written in a config file mean "next to this file", so a config works from any working
 * directory; paths from the environment or defaults stay relative to the working directory.
 */
function resolveFilePaths(raw: Record<string, unknown>, base: string): Record<string, unknown> {
  const out = { ...raw };
  if (typeof out.dataDir === 'string') out.dataDir = resolve(base, out.dataDir);
  if (typeof out.secretFile === 'string') out.secretFile = resolve(base, out.secretFile);
  const forms = out.forms;
  if (forms && typeof forms === 'object' && !Array.isArray(forms) && typeof (forms as { dir?: unknown }).dir === 'string') {
    out.forms = { ...forms, dir: resolve(base, (forms as { dir: string }).dir) };
  }
  const notifications = out.notifications;
  if (notifications && typeof notifications === 'object' && !Array.isArray(notifications) && typeof (notifications as { templatesDir?: unknown }).templatesDir === 'string') {
    out.notifications = { ...notifications, templatesDir: resolve(base, (notifications as { templatesDir: string }).templatesDir) };
  }
  const files = out.files;
  if (files && typeof files === 'object' && !Array.isArray(files) && typeof (files as { dir?: unknown }).dir === 'string') {
    out.files = { ...files, dir: resolve(base, (files as { dir: string }).dir) };
  }
  // issue #37: key files, like every path in a config file, sit next to it.
  const privacy = out.privacy as { keys?: unknown } | undefined;
  if (privacy && Array.isArray(privacy.keys)) {
    out.privacy = { ...privacy, keys: privacy.keys.map((k: unknown) => (k && typeof k === 'object' && typeof (k as { file?: unknown }).file === 'string' ? { ...k, file: resolve(base, (k as { file: string }).file) } : k)) };
  }
  const ledger = (out.privacy as { erasureLedger?: unknown } | undefined)?.erasureLedger;
  if (typeof ledger === 'string') out.privacy = { ...(out.privacy as object), erasureLedger: resolve(base, ledger) };
  // issue #13: a profile's context-provider module lives next to the config that names it.
  const headless = out.headless as { profiles?: Record<string, { contextProvider?: unknown } | null> } | undefined;
  if (headless?.profiles && typeof headless.profiles === 'object') {
    const profiles = Object.fromEntries(
      Object.entries(headless.profiles).map(([name, profile]) =>
        profile && typeof profile.contextProvider === 'string' ? [name, { ...profile, contextProvider: resolve(base, profile.contextProvider) }] : [name, profile],
      ),
    );
    out.headless = { ...headless, profiles };
  }
  return out;
}

/** The demo's config, found from this module so `svc serve --demo` works from any directory. */
export const DEMO_CONFIG_FILE = assetPath('examples/svc.config.yaml');

/** Objects merge key by key; anything else (lists included) is replaced. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && prev && typeof prev === 'object' && !Array.isArray(prev)
        ? deepMerge(prev as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** The secret a development or demo run kept in the data directory, if there is one. */
function keptSecret(dataDir: string): string | null {
  const file = join(dataDir, 'secret');
  if (!existsSync(file)) return null;
  const kept = readFileSync(file, 'utf8').trim();
  if (kept.length < 32) throw new ConfigError([`${file}: the kept secret is shorter than 32 characters; delete the file to generate a new one`]);
  return kept;
}

/** The secret in the file `secretFile` names, or why it cannot be used. */
function secretFromFile(file: string): string | { problem: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch {
    return { problem: `secretFile: cannot read ${file}` };
  }
  return text.length >= 32 ? text : { problem: `secretFile: ${file} holds fewer than 32 characters` };
}

/** A development or demo secret: generated once and kept in the data directory. */
function developmentSecret(dataDir: string): string {
  const kept = keptSecret(dataDir);
  if (kept !== null) return kept;
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(join(dataDir, 'secret'), `${secret}\n`, { mode: 0o600 });
  return secret;
}

const DATABASE_URL = /^(postgres(ql)?:\/\/|sqlite:)/;

/** Problems the schema cannot see; each check reads only the parts that are of the right shape. */
function semanticProblems(config: Config): string[] {
  const problems = [
    ...checkOrigins(config),
    ...siteProblems((config as { sites?: unknown }).sites),
    // issue #36: a theme whose colours fail WCAG AA contrast is a boot error, not a page that fails it.
    ...themeProblems((config as { hosted?: { theme?: HostedTheme } }).hosted?.theme, 'hosted.theme'),
  ];
  const url = (config.database as { url?: unknown } | undefined)?.url;
  if (typeof url === 'string' && !DATABASE_URL.test(url)) {
    problems.push(`database.url: "${url.split('://')[0]}" is not a database svc speaks; use postgres://user@host/db or sqlite:<path>`);
  }
  const files = config.files as { store?: unknown; s3?: { bucket?: unknown } } | undefined;
  if (files?.store === 's3' && (files.s3?.bucket ?? null) === null) problems.push('files.s3.bucket: required when files.store is s3');
  // A secret key alone would take payments whose webhook cannot be verified and which no client can mount.
  const stripe = (config.payments as { stripe?: Record<string, unknown> } | undefined)?.stripe;
  if (stripe && (stripe['secretKey'] ?? null) !== null) {
    for (const key of ['publishableKey', 'webhookSecret']) {
      if ((stripe[key] ?? null) === null) problems.push(`payments.stripe.${key}: required when payments.stripe.secretKey is set`);
    }
  }
  return problems;
}

const listOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Origin entries a browser could never send are typos; say so at boot, not at the first request. */
function checkOrigins(config: Config): string[] {
  const headless = (config.headless ?? {}) as { allowedOrigins?: unknown; forms?: unknown };
  const lists: [string, readonly string[]][] = [['headless.allowedOrigins', listOf(headless.allowedOrigins)]];
  const forms = headless.forms !== null && typeof headless.forms === 'object' ? (headless.forms as Record<string, { allowedOrigins?: unknown } | null>) : {};
  for (const [handle, form] of Object.entries(forms)) {
    lists.push([`headless.forms.${handle}.allowedOrigins`, listOf(form?.allowedOrigins)]);
  }
  const problems: string[] = [];
  for (const [path, list] of lists) {
    list.forEach((entry, index) => {
      if (!isValidOriginEntry(entry)) {
        problems.push(`${path}.${index}: "${entry}" is not an origin (scheme://host[:port], \`*\` for DNS labels, or a bare *)`);
      }
    });
  }
  listOf((config.spam as { blockedIps?: unknown } | undefined)?.blockedIps).forEach((entry, index) => {
    const problem = ipEntryProblem(entry);
    if (problem) problems.push(`spam.blockedIps.${index}: ${problem}`);
  });
  return problems;
}

export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const demo = options.demo ?? false;
  const defaultFile = demo ? DEMO_CONFIG_FILE : existsSync('svc.config.yaml') ? 'svc.config.yaml' : null;
  const file = options.file === undefined ? (env.SVC_CONFIG ?? defaultFile) : options.file;
  let raw = file ? readConfigFile(file) : {};
  if (options.values) raw = deepMerge(raw, options.values);
  const { config, problems: envProblems } = applyEnvOverrides(raw, env);
  const problems = envProblems.map((p) => `${p.path}: ${p.message}`);
  if (!validate(config)) {
    for (const error of validate.errors ?? []) {
      const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(root)';
      const extra =
        error.keyword === 'additionalProperties'
          ? ` (${(error.params as { additionalProperty: string }).additionalProperty})`
          : '';
      const allowed =
        error.keyword === 'enum' ? `: ${(error.params as { allowedValues: string[] }).allowedValues.join(', ')}` : '';
      problems.push(`${path}: ${error.message ?? 'is invalid'}${extra}${allowed}`);
    }
  }
  // Every problem in one report (issue #11): the checks past the schema run on what is there.
  problems.push(...semanticProblems(config as unknown as Config));
  const privacyKeys = (config as { privacy?: PrivacyKeysConfig['privacy'] }).privacy;
  if (privacyKeys && Array.isArray(privacyKeys.keys)) problems.push(...privacyKeyProblems({ secret: null, privacy: privacyKeys }, env));
  const typed = config as unknown as Config & { secret: string | null; demo: boolean; graphql: { introspection: boolean | null } };
  // issue #33: `svc init` keeps the secret out of the config it writes, in a file the config names.
  if (typed.secret === null && typeof typed.secretFile === 'string') {
    const fromFile = secretFromFile(typed.secretFile);
    if (typeof fromFile === 'string') typed.secret = fromFile;
    else problems.push(fromFile.problem);
  }
  const secretFromKeeping = typed.secret === null && (demo || env.NODE_ENV === 'development');
  if (typed.secret === null && !secretFromKeeping && !options.offline) {
    problems.push('secret: required (set SVC_SECRET or SVC_SECRET_FILE; at least 32 characters)');
  }
  // Issue #32 item 7: links svc makes (a classic post's way back, signed return URLs, file links)
  // take their origin from here, never from the Host header a client chooses.
  if (env.NODE_ENV === 'production' && !options.offline && (typed.server?.publicUrl ?? null) === null) {
    problems.push('server.publicUrl: required when NODE_ENV=production: the origin browsers reach svc on (https://forms.example.com; SVC_SERVER__PUBLIC_URL)');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  typed.dataDir = resolve(typed.dataDir);
  typed.forms.dir = resolve(typed.forms.dir);
  (typed.notifications as { templatesDir: string }).templatesDir = resolve(typed.notifications.templatesDir);
  (typed.files as { dir: string | null }).dir = resolve(typed.files.dir ?? join(typed.dataDir, 'files'));
  if (secretFromKeeping) typed.secret = developmentSecret(typed.dataDir);
  // Offline commands issue no tokens: the kept secret when there is one, else one for this run.
  else if (typed.secret === null) typed.secret = keptSecret(typed.dataDir) ?? randomBytes(32).toString('base64url');
  typed.demo = demo;
  // Resolved here so nothing later reads NODE_ENV: introspection is a development convenience.
  typed.graphql.introspection = typed.graphql.introspection ?? (demo || env.NODE_ENV === 'development');
  return deepFreeze(typed);
}
