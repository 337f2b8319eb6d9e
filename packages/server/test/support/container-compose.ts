/**
 * compose.yaml cannot be started here (no image can be pulled), so the container test checks what
 * can be checked without running it: it parses, its svc services' SVC_* variables load as svc's
 * own configuration (over the image's ENV, with every *_FILE secret in place), and the secrets,
 * the proxy and the docs agree with the services.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/config/config-loader.js';
import type { Config } from '../../src/config/config-schema.js';
import { REPO_ROOT } from './svc-command.js';

export interface ComposeService {
  readonly build?: unknown;
  readonly image?: string;
  readonly command?: string | readonly string[];
  readonly environment?: Readonly<Record<string, string>>;
  readonly secrets?: readonly string[];
  readonly depends_on?: Readonly<Record<string, unknown>> | readonly string[];
  readonly volumes?: readonly string[];
}

export interface ComposeFile {
  readonly services: Readonly<Record<string, ComposeService>>;
  readonly secrets?: Readonly<Record<string, { readonly file?: string }>>;
}

export function readCompose(): ComposeFile {
  // `<<: *svc` is YAML's merge key, which compose applies and the yaml package does on request.
  return parseYaml(readFileSync(join(REPO_ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as ComposeFile;
}

/** The services built from this repository's Containerfile. */
export function svcServices(compose: ComposeFile): [string, ComposeService][] {
  return Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
}

/** The `ENV` the Containerfile's runtime stage sets (its last stage), as the container sees it. */
export function imageEnv(): Record<string, string> {
  const text = readFileSync(join(REPO_ROOT, 'Containerfile'), 'utf8').replace(/\\\n/g, ' ');
  const lastStage = text.slice(text.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of lastStage.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const [, key, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[key as string] = value as string;
  }
  return env;
}

/** A plausible value for what a *_FILE variable's file holds. */
function secretValue(variable: string): string {
  if (variable === 'SVC_DATABASE__URL_FILE') return 'postgres://svc:a-password@postgres:5432/svc';
  if (variable === 'SVC_NOTIFICATIONS__SMTP_URL_FILE') return 'smtp://svc:a-password@mail:587';
  return 'k'.repeat(48);
}

/**
 * Loads a service's environment as svc would inside its container: each `/run/secrets/NAME` a
 * *_FILE variable names must be one of the service's secrets, and is written to a file here.
 */
export function loadServiceConfig(compose: ComposeFile, service: ComposeService): { config?: Config; problems: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-compose-'));
  const problems: string[] = [];
  try {
    const env: Record<string, string> = { ...imageEnv() };
    for (const [name, value] of Object.entries(service.environment ?? {})) {
      if (!name.endsWith('_FILE')) {
        env[name] = String(value);
        continue;
      }
      const secret = /^\/run\/secrets\/([\w.-]+)$/.exec(String(value))?.[1];
      if (!secret || !(service.secrets ?? []).includes(secret) || !compose.secrets?.[secret]) {
        problems.push(`${name}=${value}: not /run/secrets/<a secret the service and the file declare>`);
        continue;
      }
      const file = join(dir, secret);
      writeFileSync(file, `${secretValue(name)}\n`);
      env[name] = file;
    }
    try {
      return { config: loadConfig({ file: null, env }), problems };
    } catch (error) {
      return { problems: [...problems, (error as Error).message] };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
