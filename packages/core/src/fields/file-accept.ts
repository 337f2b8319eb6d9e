/** `accept` hints per file kind for a file input; the server still sniffs every file's content. */
const ACCEPT_BY_KIND: Readonly<Record<string, string>> = {
  image: 'image/*',
  pdf: '.pdf,application/pdf',
  document: '.doc,.docx,.odt,.rtf,.ppt,.pptx,.odp,.epub',
  spreadsheet: '.xls,.xlsx,.ods',
  audio: 'audio/*',
  video: 'video/*',
  archive: '.zip,.tar,.gz,.tgz,.rar,.7z,.bz2,.xz',
  text: '.txt,.csv,.tsv,.md,.json,.xml,.yaml,.yml,.ics,.vcf,text/plain',
};

/**
 * The `accept` attribute for a field's `fileKinds`; undefined when every kind is allowed.
 *
 * @example
 * acceptForFileKinds(['image', 'pdf']); // 'image/*,.pdf,application/pdf'
 */
export function acceptForFileKinds(kinds: unknown): string | undefined {
  if (!Array.isArray(kinds) || kinds.length === 0) return undefined;
  return kinds.map((kind) => ACCEPT_BY_KIND[String(kind)] ?? '').filter((a) => a !== '').join(',') || undefined;
}
