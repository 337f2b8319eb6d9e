/**
 * The check a file gets the moment it is chosen in a file input (issue #11): its kind against
 * the field's `fileKinds`, its size and the field's file count. Kinds are matched through the
 * same `accept` hints the input offers (@svc/core acceptForFileKinds), read as the browser reads
 * them, so there is one table of kinds. This is only the immediate check: the server still
 * decides from each file's content (contract §7), and its words are the ones used here.
 */
import type { ManifestField } from '@svc/client';
import { acceptForFileKinds, DEFAULT_FILE_COUNT, fieldMessages, formatMessage } from '@svc/core';
import { configNumber } from './field-view.js';

function kindsOf(field: ManifestField): readonly string[] {
  const kinds = field.config.fileKinds ?? field.validation.fileKinds;
  return Array.isArray(kinds) ? kinds.map(String) : [];
}

/** Whether `file` fits an `accept` list: `.ext` by name, `type/*` and `type/sub` by MIME type (HTML's rules). */
function fitsAccept(file: File, accept: string): boolean {
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return accept.split(',').some((raw) => {
    const token = raw.trim().toLowerCase();
    if (token.startsWith('.')) return name.endsWith(token);
    if (token.endsWith('/*')) return type.startsWith(token.slice(0, -1));
    return token !== '' && type === token;
  });
}

// As the server names kinds and sizes in its refusals (upload-service refusalMessage).
function kindLabel(kind: string): string {
  return kind === 'pdf' ? 'PDF' : kind;
}

function sizeLabel(kb: number): string {
  // Units are international; the number keeps the server's own writing, so the two messages match.
  return kb >= 1024 ? `${Math.round((kb / 1024) * 10) / 10} MB` : `${kb} KB`;
}

/** The most bytes one file may have: the manifest's ceiling-capped figure, else the field's own. */
function maxBytesOf(field: ManifestField): number | undefined {
  const bytes = field.config.maxFileSizeBytes;
  if (typeof bytes === 'number' && Number.isFinite(bytes)) return bytes;
  const kb = configNumber(field, 'maxFileSizeKB');
  return kb === undefined ? undefined : kb * 1024;
}

/**
 * What is wrong with `files` chosen for `field` (none = they may be sent). `held` counts the
 * files the field already holds (drag-and-drop uploads, files sent with an earlier step), which
 * the server adds the new ones to. `language` (BCP 47) words the problems; English by default.
 *
 * @example
 * pickedFileProblems(portfolio, [notesTxt], 0); // ['"notes.txt" is not an allowed type of file (allowed: image)']
 */
export function pickedFileProblems(field: ManifestField, files: readonly File[], held: number, language = 'en'): string[] {
  const problems: string[] = [];
  const maxFiles = configNumber(field, 'fileCount') ?? DEFAULT_FILE_COUNT;
  if (held + files.length > maxFiles) problems.push(fieldMessages(language).tooManyFiles(maxFiles));
  const kinds = kindsOf(field);
  const accept = acceptForFileKinds(kinds);
  const maxBytes = maxBytesOf(field);
  for (const file of files) {
    if (accept && !fitsAccept(file, accept)) {
      problems.push(formatMessage(language, 'element.fileNotAllowed', { name: file.name, kinds: kinds.map(kindLabel).join(', ') }));
    } else if (maxBytes !== undefined && file.size > maxBytes) {
      problems.push(formatMessage(language, 'element.fileTooLarge', { name: file.name, size: sizeLabel(Math.floor(maxBytes / 1024)) }));
    } else if (file.size === 0) {
      problems.push(formatMessage(language, 'element.fileEmpty', { name: file.name }));
    }
  }
  return problems;
}

/**
 * A field's messages while its input holds chosen files (`problems` = theirs, none when they
 * are fine; undefined = the input is empty): the files' problems first, and never "required",
 * which the field's value alone would suggest (refused files are not in it, and a file the
 * server refused leaves it empty) but the person can see is untrue. `language` is the one the
 * messages are in, so its "required" is the one left out.
 *
 * @example
 * withPickedFiles(['This field is required'], ['"a.txt" is not an allowed type of file (allowed: image)']);
 * // ['"a.txt" is not an allowed type of file (allowed: image)']
 */
export function withPickedFiles(messages: readonly string[], problems: readonly string[] | undefined, language = 'en'): readonly string[] {
  if (problems === undefined) return messages;
  const required = fieldMessages(language).required;
  return [...problems, ...messages.filter((message) => message !== required && !problems.includes(message))];
}
