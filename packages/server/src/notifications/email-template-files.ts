/**
 * Email templates as files (issue #5) and their language variants (issue #34 item 4). A template
 * is a directory, `<templatesDir>/<name>/` with `subject.liquid` and `html.liquid` and/or
 * `text.liquid`; a variant for a language is a folder inside it named by its language tag,
 * `<name>/de/` or `<name>/ar/`, holding the same files. The form keeps naming `template: <name>`:
 * which variant an email uses follows from its site's language, picked as form translations are
 * (the exact tag, else the tag shortened a subtag at a time: `de-AT` takes `de`), and without one
 * the template's own files are used.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalTag } from '@svc/core';
import { pickTranslation } from '../forms/form-translations.js';

export const TEMPLATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface TemplateSource {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

export type TemplateParts = { readonly [part in keyof TemplateSource]: string | null };

async function readPart(dir: string, part: keyof TemplateSource): Promise<string | null> {
  try {
    return await readFile(join(dir, `${part}.liquid`), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The three files of one template directory (the template's own, or a language variant's); absent ones null. */
export async function readTemplateParts(dir: string): Promise<TemplateParts> {
  const [subject, html, text] = await Promise.all([readPart(dir, 'subject'), readPart(dir, 'html'), readPart(dir, 'text')]);
  return { subject, html, text };
}

/** The source, or null when the directory lacks a subject or both bodies. */
export function completeSource(parts: TemplateParts): TemplateSource | null {
  if (parts.subject === null || (parts.html === null && parts.text === null)) return null;
  return { subject: parts.subject, html: parts.html ?? '', text: parts.text ?? '' };
}

/**
 * A folder name that is a language tag with a two- or three-letter language (`de`, `de-AT`, `ar`,
 * `zh-Hant`): BCP 47 also admits five- to eight-letter languages, which would take a folder such
 * as `images` for a language no site has.
 */
const LANGUAGE_FOLDER = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/** The language variants of a template: its folders named by a language tag. */
export async function variantTags(templateDir: string): Promise<string[]> {
  try {
    const entries = await readdir(templateDir, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory() && LANGUAGE_FOLDER.test(entry.name) && canonicalTag(entry.name) !== null).map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw error;
  }
}

/** The variant folder that serves `language`, or null when the template's own files do. */
export function pickVariant(tags: readonly string[], language: string): string | null {
  return pickTranslation(Object.fromEntries(tags.map((tag) => [tag, tag])), language)?.tag ?? null;
}
