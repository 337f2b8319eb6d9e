/**
 * `svc init [DIR]` (issue #33): a project of one's own without copying the examples. It writes the
 * config, the secret (mode 0600, never inside the config), a contact form and a .gitignore, and
 * refuses to overwrite anything: a second run, or a DIR holding one of those files, changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ConfigSchema } from '../config/config-schema.js';
import { CONTACT_FORM, GITIGNORE, SECRET_FILE, STARTER_FORM, renderInitConfig } from './init-files.js';

export interface InitOptions {
  /** Where to write; the working directory when absent. Created when missing. */
  readonly dir: string | undefined;
}

interface PlannedFile {
  readonly path: string;
  readonly content: string;
  readonly mode: number;
  readonly what: string;
}

function plan(): PlannedFile[] {
  return [
    { path: 'svc.config.yaml', content: renderInitConfig(), mode: 0o644, what: 'configuration, every key at its default' },
    // 32 random bytes, as the demo generates its own; only the owner may read it.
    { path: SECRET_FILE, content: `${randomBytes(32).toString('base64url')}\n`, mode: 0o600, what: 'server secret (mode 0600; keep it out of version control)' },
    { path: `forms/${STARTER_FORM}.yaml`, content: CONTACT_FORM, mode: 0o644, what: 'a contact form' },
    { path: '.gitignore', content: GITIGNORE, mode: 0o644, what: 'keeps the data directory and the secret out of git' },
  ];
}

export function runInit(options: InitOptions): number {
  const target = resolve(options.dir ?? '.');
  const files = plan();
  const existing = files.filter((file) => existsSync(join(target, file.path)));
  if (existing.length > 0) {
    process.stderr.write(
      `svc init: refusing to overwrite ${existing.map((file) => join(target, file.path)).join(', ')}\n` +
        'Nothing was written. Run it in an empty directory (svc init DIR), or move those files away first.\n',
    );
    return 1;
  }
  mkdirSync(join(target, 'forms'), { recursive: true });
  // 'wx' as well: a file that appeared since the check above is still not overwritten.
  for (const file of files) writeFileSync(join(target, file.path), file.content, { mode: file.mode, flag: 'wx' });

  const port = (ConfigSchema.properties.server.properties.port as { default: number }).default;
  // `cd` as the user would type it: relative below the working directory, else the full path.
  const below = relative(process.cwd(), target);
  const where = below.startsWith('..') || isAbsolute(below) ? target : below;
  const lines = [`svc init: wrote a new svc project in ${target}`, ''];
  for (const file of files) lines.push(`  ${file.path.padEnd(18)} ${file.what}`);
  lines.push('', 'Next:');
  if (where !== '') lines.push(`  cd ${where.includes(' ') ? JSON.stringify(where) : where}`);
  lines.push('  npx svc serve');
  lines.push(
    '',
    `The contact form's manifest is then at http://localhost:${port}/svc/api/forms/${STARTER_FORM}/manifest`,
    '(PORT or --port N choose another port; `npx svc forms check` checks the forms).',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
