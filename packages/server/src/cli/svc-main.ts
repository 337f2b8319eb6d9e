#!/usr/bin/env node
/**
 * The `svc` command: `svc init [dir]`, `svc serve`, `svc migrate`, `svc forms check [dir]`,
 * `svc purge`, `svc export`, `svc submissions list`, `svc payments reconcile`, `svc profiles sign`.
 * Each subcommand lives in its own file; this one only dispatches and turns known boot errors into
 * readable reports.
 */
import { parseArgs } from 'node:util';
import { describeCliError } from './cli-errors.js';
import { SERVICE_VERSION } from '../version.js';

// Each command's module is imported when it runs: loading all of them (the server, the database
// drivers, the schemas they compile) cost every command, `--version` included, about 1.7 s of CPU.

const USAGE = `Usage: svc <command> [options]

Commands:
  --version, version               print svc's version
  init [DIR]                       start a project in DIR (default .): svc.config.yaml, a secret
                                   file, forms/contact.yaml and .gitignore; overwrites nothing
  serve [--config FILE] [--demo] [--port N]
                                   start the service (--demo: example forms, generated secret)
  migrate [--dry-run] [--config FILE]
                                   apply database migrations and exit (--dry-run: list the
                                   ones that would run, in order, and run none)
  forms check [DIR] [--config FILE] validate form definitions; every problem is listed
  purge [--config FILE]            delete expired drafts, idempotency keys, unclaimed uploads and
                                   submissions past their retention now
  export --form HANDLE --format csv|jsonl --out FILE [--bom] [--status S] [--spam true|false|all]
         [--from DATE] [--to DATE] [--q TEXT] [--config FILE]
                                   export a form's submissions (progress on a terminal)
  submissions list --form HANDLE [--limit N] [--spam true|false|all] [--config FILE]
                                   the newest submissions as a table
  profiles sign PROFILE --property NAME=VALUE … [--ttl 7d] [--single-use] [--prefill FIELD=VALUE …]
         [--subject S] [--config FILE]  print a signed link token (and link) for a profile
  profiles login-token --demo [--subject S] [--claim NAME=VALUE …] [--ttl 1h]
                                   a login token from the demo's development issuer
  graphql schema [--config FILE]   print the GraphQL schema (SDL) for the configured forms
  openapi [--out FILE] [--config FILE]
                                   print (or write) the OpenAPI document of the HTTP API
  admin hash-password              read a password on stdin, print its hash for admin.users
  admin sessions revoke --user NAME|--key NAME [--config FILE]
                                   end every console session of a user or an API key now
  payments reconcile [--since DATE|48h] [--config FILE]
                                   finish paid payments that have no submission yet, cancel
                                   unpaid ones, and report what was done
  privacy find|export|erase --email ADDRESS|--identifier ID [--out FILE.zip] [--yes] [--config FILE]
                                   a person's submissions across forms: list, zip, or erase
                                   with a signed receipt (docs/privacy.md)
  privacy reindex [--after ID] [--batch N] [--config FILE]
                                   index fields marked personal in stored submissions (resumable)
  privacy receipt-key [--pem]      the public key erasure receipts are signed with
  privacy encrypt [--batch N] [--config FILE]
                                   seal submissions stored before encryption at rest (resumable;
                                   svc serve also runs it in the background)
  keys status [--config FILE]      rows per key-encryption key in every sealed table
  keys rotate [--batch N] [--config FILE]
                                   rewrap data keys under privacy.activeKey (resumable)
  backup FILE [--config FILE]      write the database and the disk store's files to one tar
                                   file (SQLite: VACUUM INTO; PostgreSQL: pg_dump)
  restore FILE [--config FILE]     put a backup back (service stopped), migrate it, and erase
                                   again what the erasure ledger lists (docs/privacy.md)

Config: --config FILE, else SVC_CONFIG, else ./svc.config.yaml when present; SVC_* variables override keys.`;

const QUERY_OPTIONS = {
  format: { type: 'string' },
  bom: { type: 'boolean' },
  status: { type: 'string' },
  spam: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  q: { type: 'string' },
  limit: { type: 'string' },
} as const;

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      demo: { type: 'boolean', default: false },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      form: { type: 'string' },
      out: { type: 'string' },
      since: { type: 'string' },
      property: { type: 'string', multiple: true },
      prefill: { type: 'string', multiple: true },
      ttl: { type: 'string' },
      'single-use': { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      subject: { type: 'string' },
      claim: { type: 'string', multiple: true },
      user: { type: 'string' },
      key: { type: 'string' },
      email: { type: 'string' },
      identifier: { type: 'string' },
      yes: { type: 'boolean', default: false },
      after: { type: 'string' },
      batch: { type: 'string' },
      pem: { type: 'boolean', default: false },
      ...QUERY_OPTIONS,
    },
  });
  const [command, sub, ...rest] = positionals;
  if (values.version || (command === 'version' && !sub)) {
    process.stdout.write(`svc ${SERVICE_VERSION}\n`);
    return 0;
  }
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  const common = { configFile: values.config, demo: values.demo ?? false };
  if (command === 'init' && rest.length === 0) return (await import('./init-command.js')).runInit({ dir: sub });
  if (command === 'serve') return (await import('./serve-command.js')).runServe({ ...common, port: values.port });
  if (command === 'migrate' && !sub) return (await import('./migrate-command.js')).runMigrate({ ...common, dryRun: values['dry-run'] ?? false });
  if (command === 'graphql' && sub === 'schema') return (await import('./graphql-schema-command.js')).runGraphqlSchema(common);
  if (command === 'openapi' && !sub) return (await import('./openapi-command.js')).runOpenapi({ ...common, out: values.out });
  if (command === 'admin' && sub === 'hash-password') return (await import('./admin-password-command.js')).runHashPassword();
  if (command === 'admin' && sub === 'sessions' && rest[0] === 'revoke' && rest.length === 1) return (await import('./admin-sessions-command.js')).runRevokeSessions({ ...common, user: values.user, key: values.key });
  if (command === 'purge') return (await import('./purge-command.js')).runPurge(common);
  if (command === 'backup' && rest.length === 0) return (await import('./backup-command.js')).runBackup({ ...common, file: sub });
  if (command === 'restore' && rest.length === 0) return (await import('./restore-command.js')).runRestore({ ...common, file: sub });
  if (command === 'privacy' && rest.length === 0) {
    const { runPrivacy } = await import('./privacy-command.js');
    return runPrivacy({ ...common, sub, email: values.email, identifier: values.identifier, out: values.out, yes: values.yes ?? false, after: values.after, batch: values.batch, pem: values.pem ?? false });
  }
  if (command === 'keys' && rest.length === 0) return (await import('./keys-command.js')).runKeys({ ...common, sub, batch: values.batch });
  if (command === 'forms' && sub === 'check') return (await import('./forms-check-command.js')).runFormsCheck({ ...common, dir: rest[0] });
  if (command === 'profiles' && sub === 'sign') {
    const { runProfilesSign } = await import('./profiles-command.js');
    return runProfilesSign({
      ...common,
      profile: rest[0],
      properties: values.property ?? [],
      prefill: values.prefill ?? [],
      ttl: values.ttl,
      singleUse: values['single-use'] ?? false,
      subject: values.subject,
    });
  }
  if (command === 'profiles' && sub === 'login-token') return (await import('./profiles-command.js')).runProfilesLoginToken({ ...common, subject: values.subject, claims: values.claim ?? [], ttl: values.ttl });
  if (command === 'payments' && sub === 'reconcile') return (await import('./payments-command.js')).runPaymentsReconcile({ ...common, ...(values.since ? { since: values.since } : {}) });
  // The filter flags are the admin API's query parameters, parsed (and refused) by the same code.
  const query = Object.fromEntries(
    Object.keys(QUERY_OPTIONS).flatMap((name) => {
      const value = (values as Record<string, unknown>)[name];
      return value === undefined ? [] : [[name, String(value)]];
    }),
  );
  if (command === 'export' && !sub) return (await import('./export-command.js')).runExport({ ...common, form: values.form, out: values.out, query });
  if (command === 'submissions' && sub === 'list') return (await import('./submissions-command.js')).runSubmissionsList({ ...common, form: values.form, query: { spam: 'all', ...query } });
  process.stderr.write(`Unknown command: ${positionals.join(' ')}\n\n${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
  },
  (error: unknown) => {
    const { exitCode, message } = describeCliError(error);
    process.stderr.write(`${message}\n`);
    if (process.env.SVC_DEBUG === '1' && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exitCode = exitCode;
  },
);
