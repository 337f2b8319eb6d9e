/**
 * The demo's development identity provider (issue #13): a key pair kept in the data directory,
 * its public half served as a JWKS at /demo/jwks.json, and `svc profiles login-token --demo`
 * signing test login tokens with the private half, so the `member` profile can be tried offline.
 * It exists only in the demo; a real site names its own issuer under `auth.issuers`.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';

// A name, not an address: `svc profiles login-token` runs without the server, so it cannot know
// the port the demo listens on (issue #31); only the JWKS is fetched, from svc's own address.
export const DEMO_ISSUER = 'svc-demo-issuer';
export const DEMO_AUDIENCE = 'svc-demo';
export const DEMO_JWKS_PATH = '/demo/jwks.json';
const KID = 'svc-demo-1';

interface KeptKeys {
  readonly privateJwk: JWK;
  readonly publicJwk: JWK;
}

async function keys(dataDir: string): Promise<KeptKeys> {
  const file = join(dataDir, 'demo-issuer.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as KeptKeys;
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kept = { privateJwk: { ...(await exportJWK(privateKey)), kid: KID, alg: 'ES256' }, publicJwk: { ...(await exportJWK(publicKey)), kid: KID, alg: 'ES256', use: 'sig' } };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(kept), { mode: 0o600 });
  return kept;
}

export async function demoJwks(dataDir: string): Promise<{ keys: JWK[] }> {
  return { keys: [(await keys(dataDir)).publicJwk] };
}

/** A login token as an identity provider would issue it for `subject` with these claims. */
export async function signDemoLogin(dataDir: string, subject: string, claims: Record<string, string>, ttlSeconds: number): Promise<string> {
  const { privateJwk } = await keys(dataDir);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: KID, typ: 'JWT' })
    .setIssuer(DEMO_ISSUER)
    .setAudience(DEMO_AUDIENCE)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(await importJWK(privateJwk, 'ES256'));
}
