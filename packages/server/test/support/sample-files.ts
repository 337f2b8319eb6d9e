/**
 * Real file contents for upload tests (the server checks kinds by magic bytes, not by name), one
 * source for the server, client and browser suites.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An RGB PNG of `size`×`size` whose rows (each led by filter byte 0) come from `pixels`. */
function rgbPng(size: number, rows: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid 1×1 PNG; `seed` changes the pixel so every call can give distinct bytes. */
export function tinyPng(seed = 0): Buffer {
  return rgbPng(1, Buffer.from([0, seed & 0xff, (seed >> 8) & 0xff, 0x7f]));
}

/** A `size`×`size` PNG with a diagonal gradient: something visible in a screenshot. */
export function gradientPng(size = 16): Buffer {
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) rows.push(Math.floor((x * 255) / size), Math.floor((y * 255) / size), 128);
  }
  return rgbPng(size, Buffer.from(rows));
}

/** A PDF of exactly `size` bytes (header, one empty page, padding in a comment, trailer). */
export function paddedPdf(size = 600): Buffer {
  const head = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n%';
  const tail = '\ntrailer << /Root 1 0 R >>\n%%EOF\n';
  const fixed = Buffer.byteLength(head, 'latin1') + Buffer.byteLength(tail, 'latin1');
  if (size < fixed) throw new Error(`a PDF needs at least ${fixed} bytes`);
  return Buffer.concat([Buffer.from(head, 'latin1'), Buffer.alloc(size - fixed, 0x20), Buffer.from(tail, 'latin1')]);
}
