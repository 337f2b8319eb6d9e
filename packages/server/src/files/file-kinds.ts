/**
 * What a file is, decided from its first bytes (file-type's magic numbers), never from the
 * client's name or Content-Type (contract §7). The client's extension is consulted only to tell
 * apart formats that share one container (an old .doc and .xls are both OLE compound files) and
 * plain text from CSV; it can narrow a decision, never turn a PNG into a PDF.
 */
import { fileTypeFromBuffer } from 'file-type';

export const FILE_KINDS = ['image', 'pdf', 'document', 'spreadsheet', 'audio', 'video', 'archive', 'text'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export interface Sniffed {
  readonly kind: FileKind;
  readonly extension: string;
  readonly mime: string;
}

/** Enough for every signature file-type knows, and for the zip directory entries of Office files. */
export const SNIFF_BYTES = 64 * 1024;

const DOCUMENTS = new Set(['docx', 'docm', 'dotx', 'dotm', 'odt', 'ott', 'rtf', 'epub', 'pptx', 'pptm', 'potx', 'potm', 'ppsx', 'ppsm', 'odp', 'otp']);
const SPREADSHEETS = new Set(['xlsx', 'xlsm', 'xltx', 'xltm', 'ods', 'ots']);
const ARCHIVES = new Set(['zip', 'tar', 'rar', 'gz', 'tar.gz', 'bz2', '7z', 'xz', 'zst', 'lz', 'lz4', 'Z']);
const TEXT_FORMATS = new Set(['xml', 'ics', 'vcf', 'vtt']);
/** OLE compound files: which kind the client's extension claims, when it is one of these. */
const COMPOUND = new Map<string, Sniffed>([
  ['doc', { kind: 'document', extension: 'doc', mime: 'application/msword' }],
  ['dot', { kind: 'document', extension: 'dot', mime: 'application/msword' }],
  ['ppt', { kind: 'document', extension: 'ppt', mime: 'application/vnd.ms-powerpoint' }],
  ['xls', { kind: 'spreadsheet', extension: 'xls', mime: 'application/vnd.ms-excel' }],
]);
const TABULAR_TEXT = new Map([
  ['csv', 'text/csv'],
  ['tsv', 'text/tab-separated-values'],
]);
// Never html or svg: a stored name must not make a browser run what it serves.
const TEXT_EXTENSIONS = new Set(['txt', 'md', 'markdown', 'log', 'json', 'yaml', 'yml', 'ini']);

function kindOf(extension: string, mime: string): FileKind | null {
  if (mime.startsWith('image/')) return 'image';
  if (extension === 'pdf') return 'pdf';
  if (DOCUMENTS.has(extension)) return 'document';
  if (SPREADSHEETS.has(extension)) return 'spreadsheet';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  if (ARCHIVES.has(extension)) return 'archive';
  if (TEXT_FORMATS.has(extension)) return 'text';
  return null;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 without control characters other than tab, line breaks and form feed. */
function looksLikeText(head: Uint8Array, complete: boolean): boolean {
  if (head.length === 0) return false;
  // A multi-byte character may be cut at the end of an incomplete head; drop up to 3 bytes.
  let end = head.length;
  if (!complete) while (end > head.length - 3 && end > 0 && ((head[end - 1] as number) & 0xc0) === 0x80) end -= 1;
  if (!complete && end > 0 && (head[end - 1] as number) >= 0xc0) end -= 1;
  let text: string;
  try {
    text = UTF8.decode(head.subarray(0, end));
  } catch {
    return false;
  }
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

export function clientExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * The kind of a file from its first bytes (`complete` when `head` is the whole file), or null
 * for anything svc does not accept as any kind: executables, libraries, unknown binaries.
 */
export async function sniffFile(head: Uint8Array, clientName: string, complete: boolean): Promise<Sniffed | null> {
  const claimed = clientExtension(clientName);
  const detected = await fileTypeFromBuffer(head);
  if (detected) {
    if (detected.ext === 'cfb') return COMPOUND.get(claimed) ?? null;
    const kind = kindOf(detected.ext, detected.mime);
    return kind ? { kind, extension: detected.ext, mime: detected.mime } : null;
  }
  if (!looksLikeText(head, complete)) return null;
  const tabular = TABULAR_TEXT.get(claimed);
  if (tabular) return { kind: 'spreadsheet', extension: claimed, mime: tabular };
  // Text keeps a harmless claimed extension (notes.md); anything else is stored as .txt.
  return { kind: 'text', extension: TEXT_EXTENSIONS.has(claimed) ? claimed : 'txt', mime: 'text/plain' };
}
