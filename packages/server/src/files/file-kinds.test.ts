import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { SNIFF_BYTES, sniffFile } from './file-kinds.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ffa1b7e1b90000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(64)]);
/** An OLE compound file header: what old .doc, .xls and .msi files all start with. */
const CFB = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)]);

function windowsExecutable(): Buffer {
  const exe = Buffer.alloc(512);
  exe.write('MZ', 0, 'latin1');
  exe.writeUInt32LE(0x80, 0x3c);
  exe.write('PE\0\0', 0x80, 'latin1');
  return exe;
}

describe('sniffFile', () => {
  it.each([
    ['a PNG', PNG, 'photo.png', 'image', 'png'],
    ['a PNG named .pdf', PNG, 'cv.pdf', 'image', 'png'],
    ['a JPEG', JPEG, 'x.jpg', 'image', 'jpg'],
    ['a PDF', PDF, 'cv.pdf', 'pdf', 'pdf'],
    ['a PDF named .png', PDF, 'x.png', 'pdf', 'pdf'],
    ['a gzip archive', gzipSync(Buffer.from('hello')), 'a.gz', 'archive', 'gz'],
    ['an old Word file', CFB, 'cv.doc', 'document', 'doc'],
    ['an old Excel file', CFB, 'sheet.XLS', 'spreadsheet', 'xls'],
    ['UTF-8 text', Buffer.from('Grüße aus Köln\r\n\tzweite Zeile\n'), 'notes.md', 'text', 'md'],
    ['text with a dangerous name', Buffer.from('<script>alert(1)</script>'), 'x.html', 'text', 'txt'],
    ['CSV', Buffer.from('a,b\n1,2\n'), 'data.csv', 'spreadsheet', 'csv'],
  ])('takes %s as what its content is', async (_name, bytes, clientName, kind, extension) => {
    expect(await sniffFile(bytes, clientName, true)).toMatchObject({ kind, extension });
  });

  it.each([
    ['a Windows executable named .jpg', windowsExecutable(), 'photo.jpg'],
    ['a compound file claiming no office extension (an .msi)', CFB, 'setup.msi'],
    ['binary junk', Buffer.from([0, 1, 2, 3, 250, 251, 252, 0, 0, 9]), 'x.txt'],
    ['invalid UTF-8', Buffer.from([0x41, 0xff, 0xfe, 0x41]), 'x.txt'],
    ['nothing', Buffer.alloc(0), 'x.txt'],
  ])('refuses %s', async (_name, bytes, clientName) => {
    expect(await sniffFile(bytes, clientName, true)).toBeNull();
  });

  it('keeps text whose head ends inside a multi-byte character', async () => {
    const text = Buffer.from('é'.repeat(SNIFF_BYTES));
    const head = text.subarray(0, SNIFF_BYTES - 1); // cuts the last "é" in half
    expect(await sniffFile(head, 'long.txt', false)).toMatchObject({ kind: 'text' });
    expect(await sniffFile(head, 'long.txt', true)).toBeNull();
  });
});
