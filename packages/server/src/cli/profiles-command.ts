/**
 * `svc profiles sign <profile> --property k=v … [--ttl 7d] [--single-use] [--prefill k=v …]`: mints
 * a signed link for a `requiresSignedToken` profile (issue #13) and prints the token and, when the
 * profile has a `linkTemplate`, the link. Needs the server's own secret: a link is signed with it.
 */
import { SvcError } from '@svc/core';
import { buildApp } from '../app.js';
import { checkProperties } from '../profiles/profile-properties.js';
import { commandConfig, type CommandOptions } from './command-options.js';
import { signDemoLogin } from '../profiles/demo-issuer.js';
import { linkSingleUse } from '../profiles/profile-link-tokens.js';

export interface SignOptions extends CommandOptions {
  readonly profile: string | undefined;
  readonly properties: readonly string[];
  readonly prefill: readonly string[];
  readonly ttl: string | undefined;
  readonly singleUse: boolean;
  readonly subject: string | undefined;
}

/** `k=v` pairs; the first `=` splits, so values may hold more. */
export function parsePairs(pairs: readonly string[], flag: string): [string, string][] {
  return pairs.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new SvcError('PAYLOAD_INVALID', `${flag}: "${pair}" is not name=value`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}

/** `90m`, `12h`, `7d` or plain seconds. */
export function parseTtl(value: string | undefined, defaultHours: number): number {
  if (value === undefined) return defaultHours * 3600;
  const match = /^(\d{1,7})([smhd]?)$/.exec(value);
  if (!match) throw new SvcError('PAYLOAD_INVALID', `--ttl: "${value}" is not a duration such as 90m, 12h or 7d`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

export async function runProfilesSign(options: SignOptions): Promise<number> {
  if (!options.profile) throw new SvcError('PAYLOAD_INVALID', 'Usage: svc profiles sign <profile> --property name=value [--ttl 7d] [--single-use]');
  // Links are checked by the server with its secret, so only the real one makes a working link.
  const config = commandConfig(options, 'serve');
  const svc = await buildApp(config, { logger: false });
  try {
    const profile = svc.context.profiles.registry.resolve(options.profile);
    if (!profile.config.requiresSignedToken) throw new SvcError('PAYLOAD_INVALID', `Profile "${profile.name}" does not take signed links (requiresSignedToken is false).`);
    const properties = checkProperties(profile.config, parsePairs(options.properties, '--property'));
    const token = await svc.context.profiles.links.sign({
      profile: profile.name,
      properties,
      ttlSeconds: parseTtl(options.ttl, config.profileLinks.defaultTtlHours),
      // The flag can only ask for single use; without it the profile decides (linkSingleUse).
      singleUse: linkSingleUse(profile, options.singleUse ? true : undefined),
      prefill: Object.fromEntries(parsePairs(options.prefill, '--prefill')),
      ...(options.subject ? { subject: options.subject } : {}),
    });
    process.stdout.write(`${token}\n`);
    if (profile.config.linkTemplate) process.stdout.write(`${svc.context.profiles.address.resolve(profile.config.linkTemplate.replaceAll('{token}', encodeURIComponent(token)))}\n`);
    return 0;
  } finally {
    await svc.close();
  }
}

/**
 * `svc profiles login-token --demo --subject kim --claim email=kim@example.test …`: a login token
 * from the demo's development issuer, for trying a `requiresAuth` profile without an identity
 * provider. Refused outside the demo: a real site's tokens come from its own issuer.
 */
export async function runProfilesLoginToken(options: CommandOptions & { subject: string | undefined; claims: readonly string[]; ttl: string | undefined }): Promise<number> {
  if (!options.demo) throw new SvcError('PAYLOAD_INVALID', 'login-token signs with the demo\'s development issuer: run it with --demo.');
  const config = commandConfig(options);
  const claims = Object.fromEntries(parsePairs(options.claims, '--claim'));
  const token = await signDemoLogin(config.dataDir, options.subject ?? 'demo-member', claims, parseTtl(options.ttl, 1));
  process.stdout.write(`${token}\n`);
  return 0;
}
