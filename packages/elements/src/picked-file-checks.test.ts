import { describe, expect, it } from 'vitest';
import type { ManifestField } from '@svc/client';
import { FIELD_MESSAGES } from '@svc/core';
import { pickedFileProblems, withPickedFiles } from './picked-file-checks.js';

/** Only what the checks read of a manifest field. */
function fileField(config: Record<string, unknown>, validation: Record<string, unknown> = {}): ManifestField {
  return { handle: 'f', label: 'F', type: 'file', required: false, config, validation } as unknown as ManifestField;
}

function file(name: string, type: string, size = 10): File {
  return new File([new Uint8Array(size)], name, { type });
}

const images = fileField({ fileKinds: ['image'], fileCount: 3, maxFileSizeBytes: 1024 });
const papers = fileField({}, { fileKinds: ['pdf', 'document'], maxFileSizeKB: 5120 });

describe('pickedFileProblems', () => {
  it.each([
    ['an image by its MIME type, whatever its name', images, [file('photo', 'image/png')], []],
    ['a PDF by its extension, in capitals', papers, [file('CV.PDF', '')], []],
    ['a Word document by its extension', papers, [file('cv.docx', 'application/octet-stream')], []],
    ['a text file for images', images, [file('notes.txt', 'text/plain')], ['"notes.txt" is not an allowed type of file (allowed: image)']],
    ['a text file for PDFs and documents (kinds from validation)', papers, [file('notes.txt', 'text/plain')], ['"notes.txt" is not an allowed type of file (allowed: PDF, document)']],
    ['a file over the manifest\'s byte limit', images, [file('big.png', 'image/png', 1025)], ['"big.png" is larger than 1 KB']],
    ['a file over maxFileSizeKB', papers, [file('huge.pdf', 'application/pdf', 5120 * 1024 + 1)], ['"huge.pdf" is larger than 5 MB']],
    ['an empty file', papers, [file('blank.pdf', 'application/pdf', 0)], ['"blank.pdf" is empty']],
    ['any file for a field without kinds', fileField({}), [file('anything.bin', '')], []],
  ])('%s', (_name, field, files, problems) => {
    expect(pickedFileProblems(field, files, 0)).toEqual(problems);
  });

  it('counts the files the field already holds (fileCount 1 when unset)', () => {
    const png = file('a.png', 'image/png');
    expect(pickedFileProblems(images, [png, png], 1)).toEqual([]);
    expect(pickedFileProblems(images, [png, png], 2)).toEqual([FIELD_MESSAGES.tooManyFiles(3)]);
    expect(pickedFileProblems(fileField({}), [png, png], 0)).toEqual([FIELD_MESSAGES.tooManyFiles(1)]);
  });
});

describe('pickedFileProblems in the site language', () => {
  it.each([
    ['de-DE', [file('notes.txt', 'text/plain')], 0, ['„notes.txt“ hat keinen erlaubten Dateityp (erlaubt: image)']],
    ['fr', [file('big.png', 'image/png', 1025)], 0, ['« big.png » dépasse 1 KB']],
    ['ar', [file('a.png', 'image/png'), file('b.png', 'image/png')], 2, ['ارفع 3 ملفات على الأكثر']],
    ['nl', [file('leeg.png', 'image/png', 0)], 0, ['"leeg.png" is leeg']],
  ])('%s', (language, files, held, problems) => {
    expect(pickedFileProblems(images, files, held, language)).toEqual(problems);
  });

  it('leaves out the "required" of the language the messages are in', () => {
    expect(withPickedFiles(['Dieses Feld ist erforderlich', 'Andere'], [], 'de')).toEqual(['Andere']);
  });
});

describe('withPickedFiles', () => {
  const kind = '"a.txt" is not an allowed type of file (allowed: image)';

  it('leaves the messages alone when the input is empty', () => {
    expect(withPickedFiles([FIELD_MESSAGES.required], undefined)).toEqual([FIELD_MESSAGES.required]);
  });

  it('never says "required" of an input that holds files, and puts their problems first once', () => {
    expect(withPickedFiles([FIELD_MESSAGES.required], [])).toEqual([]);
    expect(withPickedFiles([kind, FIELD_MESSAGES.required, 'Other'], [kind])).toEqual([kind, 'Other']);
  });
});
