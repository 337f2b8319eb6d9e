/** Real file contents (the server checks kinds by magic bytes, not by name or type). */
import { paddedPdf, tinyPng } from '../../../server/test/support/sample-files.js';

/** A valid 1×1 PNG; `seed` changes the pixel. */
export const pngBytes = (seed = 0): Uint8Array<ArrayBuffer> => new Uint8Array(tinyPng(seed));

/** A minimal PDF of exactly `size` bytes. */
export const pdfBytes = (size = 600): Uint8Array<ArrayBuffer> => new Uint8Array(paddedPdf(size));

export const pngFile = (name = 'a.png', seed = 0) => new File([pngBytes(seed)], name, { type: 'image/png' });
export const pdfFile = (name = 'cv.pdf', size = 600) => new File([pdfBytes(size)], name, { type: 'application/pdf' });

/** The part names of a FormData body, in order (lib DOM here has no iterable FormData). */
export function formDataNames(form: FormData): string[] {
  const names: string[] = [];
  form.forEach((_value, name) => names.push(name));
  return names;
}
