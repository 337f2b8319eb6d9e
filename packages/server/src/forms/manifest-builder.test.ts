import { describe, expect, it } from 'vitest';
import { manifestBody, manifestBytes, type CachedManifest } from './manifest-builder.js';
import { FILL_TIMESTAMP_PLACEHOLDER as P } from '../security/fill-timestamps.js';

function cached(body: string): CachedManifest {
  const bodyPieces = body.split(P).map((piece) => Buffer.from(piece));
  return { data: {} as CachedManifest['data'], body, etag: '"e"', fillTimestamp: bodyPieces.length > 1, bodyPieces };
}

describe('manifest bytes', () => {
  it('splices the timestamp where the string replacement would, at every placeholder, in UTF-8', () => {
    const manifest = cached(`{"a":"${P}","label":"Grüße ✓","b":"v~${P}","c":"${P}"}`);
    const bytes = manifestBytes(manifest, () => 'lz1x.mac');
    expect(bytes.toString('utf8')).toBe(manifestBody(manifest, () => 'lz1x.mac'));
    expect(bytes.toString('utf8')).not.toContain(P);
  });

  it('answers the cached bytes for a body without a placeholder, without asking for a timestamp', () => {
    const manifest = cached('{"success":true}');
    expect(manifestBytes(manifest, () => { throw new Error('no timestamp wanted'); }).toString()).toBe('{"success":true}');
  });

  it('shares the bytes of one response while the timestamp is the same, and splices anew when it changes', () => {
    const manifest = cached(`{"t":"${P}"}`);
    const first = manifestBytes(manifest, () => 'one');
    expect(manifestBytes(manifest, () => 'one')).toBe(first);
    expect(manifestBytes(manifest, () => 'two').toString()).toBe('{"t":"two"}');
    expect(first.toString()).toBe('{"t":"one"}');
  });
});
