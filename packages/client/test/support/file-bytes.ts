/** Real file contents (the server checks kinds by magic bytes, not by name or type). */
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

/** A valid 1×1 RGB PNG; `seed` changes the pixel. */
export function pngBytes(seed = 0): Uint8Array<ArrayBuffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8;
  header[9] = 2;
  const pixel = Buffer.from([0, seed & 0xff, (seed >> 8) & 0xff, 0x7f]);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', header),
      pngChunk('IDAT', deflateSync(pixel)),
      pngChunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** A minimal PDF of exactly `size` bytes. */
export function pdfBytes(size = 600): Uint8Array<ArrayBuffer> {
  const head = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n%';
  const tail = '\ntrailer << /Root 1 0 R >>\n%%EOF\n';
  const fixed = Buffer.byteLength(head, 'latin1') + Buffer.byteLength(tail, 'latin1');
  return new Uint8Array(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.alloc(size - fixed, 0x20), Buffer.from(tail, 'latin1')]));
}

export const pngFile = (name = 'a.png', seed = 0) => new File([pngBytes(seed)], name, { type: 'image/png' });
export const pdfFile = (name = 'cv.pdf', size = 600) => new File([pdfBytes(size)], name, { type: 'application/pdf' });

/** The part names of a FormData body, in order (lib DOM here has no iterable FormData). */
export function formDataNames(form: FormData): string[] {
  const names: string[] = [];
  form.forEach((_value, name) => names.push(name));
  return names;
}
