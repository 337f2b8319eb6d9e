/**
 * Builds a raw multipart/form-data body for `app.inject()`, byte for byte as a browser would send
 * it, so a suite controls part order, empty file inputs and exact file bytes.
 */
import { randomBytes } from 'node:crypto';

export type MultipartPart =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly filename: string; readonly data: Buffer | string; readonly contentType?: string };

export interface MultipartBody {
  readonly payload: Buffer;
  readonly headers: { readonly 'content-type': string };
}

function quoted(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

export function multipartBody(parts: readonly MultipartPart[]): MultipartBody {
  const boundary = `----svcTestBoundary${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part.name)}"`;
    let data: Buffer;
    if ('filename' in part) {
      head += `; filename="${quoted(part.filename)}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}`;
      data = Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8');
    } else {
      data = Buffer.from(part.value, 'utf8');
    }
    chunks.push(Buffer.from(`${head}\r\n\r\n`, 'utf8'), data, Buffer.from('\r\n', 'utf8'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A file part. */
export function filePart(name: string, filename: string, data: Buffer | string, contentType?: string): MultipartPart {
  return contentType === undefined ? { name, filename, data } : { name, filename, data, contentType };
}

/** A plain field part. */
export function fieldPart(name: string, value: string): MultipartPart {
  return { name, value };
}
