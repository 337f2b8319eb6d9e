/**
 * The `privacy` config section (issue #37): the key-encryption keys (KEKs) that wrap every data
 * key values, uploads and drafts are sealed with. With none configured, one KEK is derived from
 * the server secret (id `secret`), so every installation encrypts at rest from its first start;
 * an owner who wants the key apart from the secret, or to rotate, lists keys here and runs
 * `svc keys rotate`.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { deriveKey } from '../security/token-crypto.js';
import { createKeyring, secretKek, type KeyEncryptionKey, type Keyring } from './privacy-keyring.js';

const KeyEntry = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$', description: 'Stored beside each data key it wraps; never reuse an id for other key material.' }),
    file: Type.Optional(Type.String({ minLength: 1, description: 'A file holding the key (≥ 32 characters; a path in a config file is relative to it).' })),
    env: Type.Optional(Type.String({ pattern: '^[A-Z_][A-Z0-9_]*$', description: 'An environment variable holding the key (≥ 32 characters).' })),
  },
  { additionalProperties: false },
);

export const PrivacySection = Type.Object(
  {
    keys: Type.Array(KeyEntry, {
      default: [],
      description:
        'Key-encryption keys [{id, file} or {id, env}]; empty = one key derived from the server secret (id `secret`). Keep old keys listed until `svc keys rotate` has rewrapped every data key.',
    }),
    activeKey: Type.Union([Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$' }), Type.Null()], {
      default: null,
      description: 'The id new data keys are wrapped under; null = the last entry of `keys` (or `secret`).',
    }),
    erasureLedger: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
      default: null,
      description:
        'The append-only file every erasure is also written to (issue #37): a restored older database erases those submissions again at start. null = `<dataDir>/erasures.log`; keep it off the database\'s disk and out of its backups, and give every instance the same file.',
    }),
  },
  { additionalProperties: false, default: {} },
);

export interface PrivacyKeysConfig {
  readonly secret: string | null;
  readonly privacy: { readonly keys: readonly { id: string; file?: string; env?: string }[]; readonly activeKey: string | null };
}

/** The erasure ledger file of a validated config (privacy-ledger.ts). */
export function erasureLedgerPath(config: { readonly dataDir: string; readonly privacy: { readonly erasureLedger: string | null } }): string {
  return resolve(config.privacy.erasureLedger ?? join(config.dataDir, 'erasures.log'));
}

/** Why the configured keys cannot be used, one line each (config is validated once, at boot). */
export function privacyKeyProblems(config: PrivacyKeysConfig, env: NodeJS.ProcessEnv = process.env): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const [i, entry] of config.privacy.keys.entries()) {
    const where = `privacy.keys[${i}]`;
    if (ids.has(entry.id)) problems.push(`${where}: the id "${entry.id}" is listed twice`);
    ids.add(entry.id);
    if (entry.id === 'secret') problems.push(`${where}: the id "secret" names the key derived from the server secret; choose another`);
    if ((entry.file === undefined) === (entry.env === undefined)) problems.push(`${where}: give exactly one of file or env`);
    else {
      const text = keyText(entry, env);
      if (typeof text !== 'string') problems.push(`${where}: ${text.problem}`);
    }
  }
  const active = config.privacy.activeKey;
  if (active !== null && active !== 'secret' && !ids.has(active)) problems.push(`privacy.activeKey: "${active}" is not among privacy.keys`);
  return problems;
}

function keyText(entry: { id: string; file?: string; env?: string }, env: NodeJS.ProcessEnv): string | { problem: string } {
  let text: string | undefined;
  if (entry.file !== undefined) {
    try {
      text = readFileSync(entry.file, 'utf8').trim();
    } catch {
      return { problem: `cannot read ${entry.file}` };
    }
  } else text = env[entry.env as string]?.trim();
  if (text === undefined || text.length === 0) return { problem: `the environment variable ${entry.env} is not set` };
  return text.length >= 32 ? text : { problem: 'the key holds fewer than 32 characters' };
}

/**
 * The keyring of a validated config: the secret's KEK (always, so rows sealed before keys were
 * configured still open) and every listed key, each stretched by HKDF so any 32+ character text
 * (`openssl rand -base64 32`) is a key.
 */
export function keyringFromConfig(config: PrivacyKeysConfig, env: NodeJS.ProcessEnv = process.env): Keyring {
  const keks: KeyEncryptionKey[] = config.secret ? [secretKek(config.secret)] : [];
  for (const entry of config.privacy.keys) {
    const text = keyText(entry, env);
    if (typeof text !== 'string') throw new Error(`privacy.keys: ${entry.id}: ${text.problem}`);
    keks.push({ id: entry.id, key: deriveKey(text, `privacy-kek:${entry.id}`) });
  }
  const active = config.privacy.activeKey ?? config.privacy.keys.at(-1)?.id ?? 'secret';
  return createKeyring(keks, active);
}
