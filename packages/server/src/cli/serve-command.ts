/** `svc serve`: boot, listen, print what a newcomer needs, and shut down cleanly on signals. */
import { buildApp } from '../app.js';
import { describeDatabase } from '../storage/database-factory.js';
import { commandConfig, type CommandOptions } from './command-options.js';
import { DOCS_PATH, OPENAPI_PATH } from '../openapi/openapi-exclusions.js';
import { CONSOLE_BASE } from '../console/console-pages.js';
import { withDemoConsoleUser } from '../console/console-demo-user.js';
import { startLegacyEncryption } from '../privacy/privacy-legacy-encryption.js';

export async function runServe(options: CommandOptions): Promise<number> {
  const { config, login } = await withDemoConsoleUser(commandConfig(options, 'serve'));
  const svc = await buildApp(config);
  const { port, host } = config.server;
  await svc.app.listen({ port, host });
  const address = svc.app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const base = config.server.publicUrl?.replace(/\/$/, '') ?? `http://localhost:${actualPort}`;
  const db = describeDatabase({ url: config.database.url, dataDir: config.dataDir });
  const lines = [
    '',
    `svc is running at ${base}${config.demo ? ' (demo)' : ''}`,
    `  database: ${db.dialect} ${db.location}`,
    `  forms:    ${config.forms.dir}`,
    `  CSRF token: GET ${base}/svc/tokens`,
  ];
  // issue #31: a newcomer's next stops after the manifests: the API reference, GraphQL, the console.
  if (config.headless.enabled) lines.push(`  API reference: ${base}${DOCS_PATH}  (OpenAPI: ${base}${OPENAPI_PATH})`);
  if (config.graphql.enabled) lines.push(`  GraphQL:  POST ${base}/graphql`);
  if (config.console.enabled) lines.push(`  console:  ${base}${CONSOLE_BASE}/`);
  // issue #33: the demo's console user, so the console opens without editing config. The password
  // is printed only here; the running config holds its hash, and the next start makes another.
  if (login) lines.push(`            sign in as ${login.username}, password ${login.password}  (made for this run)`);
  if (config.demo) {
    lines.push(`  demo:     ${base}/demo/  (every example form in <svc-form>)`);
    // issue #14: the same forms drawn on the server from their properties JSON, no JavaScript needed.
    lines.push(`  classic:  ${base}/demo/classic/<form>  (server-rendered from ${config.classic.propertiesPath.replace('{handle}', '<form>')})`);
  }
  // issue #12: say plainly that the demo's payments are not real.
  if (config.demo && !config.payments.stripe.secretKey) lines.push('  payments: offline Stripe test double (no keys set; no real card is charged)');
  for (const form of svc.context.forms.list()) {
    const switches = config.headless.forms[form.handle];
    const flags = [switches?.exposeManifest ? 'manifest' : null, switches?.allowSubmit ? 'submit' : null].filter(Boolean);
    lines.push(`  ${form.handle.padEnd(14)} ${base}/svc/api/forms/${form.handle}/manifest  [${flags.join(', ') || 'not exposed'}]`);
  }
  // issue #34: every other site's manifests of the exposed forms translated into its language.
  for (const site of svc.context.sites.list.filter((s) => !s.isDefault)) {
    const translated = svc.context.forms.list().filter((f) => config.headless.forms[f.handle]?.exposeManifest && svc.context.localize(f, site.language) !== f);
    lines.push(`  site ${site.handle} (${site.language})${translated.length === 0 ? ': no form translated' : ''}`);
    for (const form of translated) lines.push(`    ${form.handle.padEnd(12)} ${base}/svc/api/forms/${form.handle}/manifest?site=${site.handle}`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
  // issue #37 item 1: submissions stored before values were sealed are sealed in the background.
  const sealing = startLegacyEncryption(svc.context.database.db, svc.context.sealer, svc.app.log, svc.context.uploads.store);
  let stopping = false;
  // issue #16: stop taking connections, let in-flight requests and the delivery batch finish
  // (server.shutdownGraceMs at most), close the database, exit 0. A second signal exits at once.
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    svc.app.log.info({ signal, graceMs: config.server.shutdownGraceMs }, 'shutting down');
    const deadline = setTimeout(() => {
      svc.app.log.error({ graceMs: config.server.shutdownGraceMs }, 'shutdown grace period over; exiting with work unfinished');
      process.exit(1);
    }, config.server.shutdownGraceMs);
    deadline.unref();
    // Half the grace period for clients to finish on their open connections, the rest for closing.
    void svc
      .drain(Math.min(5000, config.server.shutdownGraceMs / 2))
      .then(() => sealing.stop())
      .then(() => svc.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          svc.app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return 0;
}
