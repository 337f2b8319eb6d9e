import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, createChunkSealer, openSealedStream, sealedSize } from './upload-sealing.js';

const key = randomBytes(32);

/** Seals `plain` as the receiver does: in the pieces it arrives in, then final. */
function seal(plain: Buffer, pieces: number[], binding = 'form/abc.pdf', withKey = key): Buffer {
  const sealer = createChunkSealer(withKey, binding);
  const out: Buffer[] = [];
  let at = 0;
  for (const size of pieces) {
    out.push(...sealer.update(plain.subarray(at, at + size)));
    at += size;
  }
  out.push(...sealer.update(plain.subarray(at)), ...sealer.final());
  return Buffer.concat(out);
}

/** Feeds sealed bytes in odd-sized pieces, as a file or S3 stream may. */
function stream(bytes: Buffer, piece = 10_007): Readable {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += piece) parts.push(bytes.subarray(at, at + piece));
  return Readable.from(parts);
}

describe('upload sealing', () => {
  it.each([0, 1, 100, CHUNK_BYTES - 16, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 3 * CHUNK_BYTES, 3 * CHUNK_BYTES + 5])(
    'opens what it sealed, %i bytes, to the same bytes, and the sealed size is as predicted',
    async (size) => {
      const plain = randomBytes(size);
      const sealed = seal(plain, [7, 70_000, 13]);
      expect(sealed.length).toBe(sealedSize(size));
      // A run of 16 plain bytes or more is never in the sealed form (shorter ones can be, by chance).
      if (size >= 16) expect(sealed.includes(plain.subarray(0, Math.min(size, 64)))).toBe(false);
      const opened = await buffer(openSealedStream(stream(sealed), key, 'form/abc.pdf'));
      // equals(), not toEqual: a deep compare walks a Buffer byte by byte.
      expect(opened.equals(plain)).toBe(true);
    },
  );

  it('keeps no plain text of the content in the sealed bytes', () => {
    const plain = Buffer.from(`header MARKER-${'x'.repeat(200_000)} MARKER-TAIL`);
    const sealed = seal(plain, [5]);
    expect(sealed.includes(Buffer.from('MARKER'))).toBe(false);
  });

  it('fails to open under another key, another binding, a changed byte, or a file cut at a chunk boundary', async () => {
    const plain = randomBytes(2 * CHUNK_BYTES + 10);
    const sealed = seal(plain, []);
    await expect(buffer(openSealedStream(stream(sealed), randomBytes(32), 'form/abc.pdf'))).rejects.toThrow(/does not open/);
    await expect(buffer(openSealedStream(stream(sealed), key, 'form/other.pdf'))).rejects.toThrow(/does not open/);
    const flipped = Buffer.from(sealed);
    flipped[CHUNK_BYTES + 100] = (flipped[CHUNK_BYTES + 100] as number) ^ 1;
    await expect(buffer(openSealedStream(stream(flipped), key, 'form/abc.pdf'))).rejects.toThrow(/does not open/);
    // The first two whole chunks alone, or everything but the end: each chunk opens, but no end does.
    for (const length of [12 + 2 * (CHUNK_BYTES + 16), sealed.length - 16, sealed.length - 1]) {
      await expect(buffer(openSealedStream(stream(sealed.subarray(0, length)), key, 'form/abc.pdf'))).rejects.toThrow(/does not open/);
    }
    await expect(buffer(openSealedStream(stream(Buffer.from('plain bytes, never sealed')), key, 'form/abc.pdf'))).rejects.toThrow(/not a sealed file/);
  });
});
