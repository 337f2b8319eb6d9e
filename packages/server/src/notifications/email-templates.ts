/**
 * Email templates as files (issue #5): `<templatesDir>/<name>/subject.liquid`, `html.liquid` and
 * `text.liquid`, rendered with LiquidJS in a sandbox: no file system (no partials), no
 * prototype access, bounded render time and memory, and every value HTML-escaped in the html
 * part. Templates can loop over `fields` (label, handle, value as text) and `files`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Liquid } from 'liquidjs';
import type { Form } from '@svc/core';
import { PermanentDeliveryError, type DeliveryPayload } from './delivery-model.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function engine(escape: boolean): Liquid {
  return new Liquid({
    ownPropertyOnly: true,
    strictFilters: true,
    relativeReference: false,
    dynamicPartials: false,
    outputEscape: escape ? 'escape' : undefined,
    renderLimit: 1000,
    parseLimit: 100_000,
    memoryLimit: 10_000_000,
  });
}

const HTML = engine(true);
const TEXT = engine(false);

/** Built in, used when a form names no template: every field, in order. */
const DEFAULT_TEMPLATE = {
  subject: 'New submission: {{ form.name }}{% if submission.title != "" %} ({{ submission.title }}){% endif %}',
  html: '<h1>{{ form.name }}</h1>\n<table>{% for field in fields %}<tr><th align="left">{{ field.label }}</th><td>{{ field.value }}</td></tr>{% endfor %}</table>\n{% if files.size > 0 %}<p>Files:</p><ul>{% for file in files %}<li>{{ file.name }} ({{ file.size }} bytes){% if file.url %} <a href="{{ file.url }}">download</a>{% endif %}</li>{% endfor %}</ul>{% endif %}',
  text: '{{ form.name }}\n\n{% for field in fields %}{{ field.label }}: {{ field.value }}\n{% endfor %}{% for file in files %}File: {{ file.name }} ({{ file.size }} bytes){% if file.url %} {{ file.url }}{% endif %}\n{% endfor %}',
};

export interface RenderedEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map((v) => (Array.isArray(v) ? v.map(displayValue).join(' | ') : displayValue(v))).join(', ');
  return String(value);
}

/** The scope every template sees: plain data, nothing callable. */
export function templateScope(form: Form | undefined, payload: DeliveryPayload, fileUrl: (id: string) => string | null) {
  const fields = (form?.fields ?? [])
    .filter((f) => f.handle !== null && f.type !== 'submit' && Object.hasOwn(payload.values, f.handle))
    .map((f) => ({ handle: f.handle as string, label: f.label, type: f.type, value: displayValue(payload.values[f.handle as string]) }));
  return {
    form: payload.form,
    submission: payload.submission,
    values: payload.values,
    fields,
    files: payload.files.map((f) => ({ ...f, url: fileUrl(f.id) })),
  };
}

export interface EmailTemplates {
  render(name: string, scope: object): Promise<RenderedEmail>;
}

export function createEmailTemplates(dir: string): EmailTemplates {
  const read = async (name: string, part: 'subject' | 'html' | 'text'): Promise<string | null> => {
    try {
      return await readFile(join(dir, name, `${part}.liquid`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };
  return {
    async render(name, scope) {
      let source: { subject: string; html: string; text: string };
      if (name === 'default') source = DEFAULT_TEMPLATE;
      else {
        if (!NAME.test(name)) throw new PermanentDeliveryError(`template name "${name}" is not valid`);
        const [subject, html, text] = await Promise.all([read(name, 'subject'), read(name, 'html'), read(name, 'text')]);
        if (subject === null || (html === null && text === null)) {
          throw new PermanentDeliveryError(`template "${name}" needs subject.liquid and html.liquid or text.liquid in ${dir}`);
        }
        source = { subject, html: html ?? '', text: text ?? '' };
      }
      try {
        return {
          // A subject is one line, whatever the template or the values say.
          subject: (await TEXT.parseAndRender(source.subject, scope)).replace(/[\r\n]+/g, ' ').trim().slice(0, 300),
          html: source.html === '' ? '' : await HTML.parseAndRender(source.html, scope),
          text: source.text === '' ? '' : await TEXT.parseAndRender(source.text, scope),
        };
      } catch (error) {
        throw new PermanentDeliveryError(`template "${name}" failed to render: ${(error as Error).message.split('\n')[0]}`);
      }
    },
  };
}
