/**
 * A JWKS endpoint on loopback (issue #13) with keys made by jose, which it can rotate, and a
 * signer for test tokens: what an identity provider is to a `requiresAuth` profile.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

export interface JwksServer {
  readonly url: string;
  /** How many times the JWKS was fetched. */
  readonly fetches: number;
  /** Adds a new key (served from now on) and signs with it; the old keys stay published. */
  rotate(): Promise<string>;
  /** A token signed with the current key (or `kid`), with these claims and header overrides. */
  sign(claims: JWTPayload, options?: { kid?: string; expiresIn?: string | number; header?: Record<string, unknown> }): Promise<string>;
  close(): Promise<void>;
}

interface Key {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly jwk: Record<string, unknown>;
}

async function makeKey(index: number): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `test-key-${index}`;
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

export async function startJwksServer(): Promise<JwksServer> {
  const keys: Key[] = [await makeKey(1)];
  let fetches = 0;
  const server = createServer((_req, res) => {
    fetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: keys.map((k) => k.jwk) }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  return {
    url,
    get fetches() {
      return fetches;
    },
    async rotate() {
      const key = await makeKey(keys.length + 1);
      keys.push(key);
      return key.kid;
    },
    async sign(claims, options = {}) {
      const key = options.kid ? keys.find((k) => k.kid === options.kid) : keys[keys.length - 1];
      if (!key) throw new Error(`no key ${options.kid}`);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: key.kid, ...(options.header ?? {}) })
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '10m')
        .sign(key.privateKey);
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
