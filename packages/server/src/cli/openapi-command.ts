/**
 * `svc openapi [--out FILE]` (issue #16): the OpenAPI 3.1 document the configured server serves at
 * /svc/api/openapi.json, for publishing and client generation. The routes are what make the
 * document, so the real app is built, but with nothing that reaches outside this run: a scratch
 * SQLite database and data directory, no Redis, no delivery worker, no form watcher, no metrics
 * listener of its own. None of those changes a route of the main port.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp } from '../app.js';
import type { Config } from '../config/config-schema.js';
import { commandConfig, type CommandOptions } from './command-options.js';

/** The document for `config`, as JSON text with a final newline (what `svc openapi` prints). */
export async function openapiDocumentText(config: Config): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
  // /metrics is on the main port only with a token; a metrics port of its own is another listener.
  const metrics = { ...config.metrics, port: null, enabled: config.metrics.enabled && config.metrics.tokenSha256 !== null };
  const scratch: Config = {
    ...config,
    dataDir,
    database: { ...config.database, url: null },
    redis: { ...config.redis, url: null },
    deliveries: { ...config.deliveries, enabled: false },
    forms: { ...config.forms, watch: false },
    files: { ...config.files, store: 'disk', dir: join(dataDir, 'files') },
    metrics,
  };
  const svc = await buildApp(scratch, { logger: false });
  try {
    return `${JSON.stringify(svc.app.swagger(), null, 2)}\n`;
  } finally {
    await svc.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runOpenapi(options: CommandOptions & { readonly out?: string | undefined }): Promise<number> {
  const text = await openapiDocumentText(commandConfig(options));
  if (options.out) {
    writeFileSync(resolve(options.out), text);
    process.stderr.write(`svc: wrote the OpenAPI document to ${options.out}\n`);
  } else {
    process.stdout.write(text);
  }
  return 0;
}
