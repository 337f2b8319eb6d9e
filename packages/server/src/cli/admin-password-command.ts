/**
 * `svc admin hash-password` (issue #15): reads a password from stdin (one line; nothing is echoed
 * or kept) and prints the scrypt hash to put in `admin.users[].passwordHash`.
 */
import { hashPassword } from '../console/console-passwords.js';

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

export async function runHashPassword(): Promise<number> {
  const password = (await readStdin()).replace(/\r?\n$/, '');
  if (password.length < 12) {
    process.stderr.write('svc: give a password of at least 12 characters on stdin, e.g. `read -rs P; printf %s "$P" | svc admin hash-password`\n');
    return 2;
  }
  process.stdout.write(`${await hashPassword(password)}\n`);
  return 0;
}
