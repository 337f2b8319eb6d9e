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
    // issue #12: `{{ payment.amountFormatted }} {{ payment.currency }}` in a paid form's emails.
    payment: payload.payment ?? null,
  };
}

export interface EmailTemplates {
  render(name: string, scope: object): Promise<RenderedEmail>;
}

type Parsed = ReturnType<Liquid['parse']>;

interface CompiledTemplate {
  readonly subject: Parsed;
  readonly html: Parsed | null;
  readonly text: Parsed | null;
}

/** How long a parsed template is trusted before its files are read again (edits show up this fast). */
const RELOAD_MS = 2000;

function compile(source: { subject: string; html: string; text: string }): CompiledTemplate {
  return {
    subject: TEXT.parse(source.subject),
    html: source.html === '' ? null : HTML.parse(source.html),
    text: source.text === '' ? null : TEXT.parse(source.text),
  };
}

export function createEmailTemplates(dir: string, clock: () => number = Date.now): EmailTemplates {
  const read = async (name: string, part: 'subject' | 'html' | 'text'): Promise<string | null> => {
    try {
      return await readFile(join(dir, name, `${part}.liquid`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };
  const load = async (name: string): Promise<CompiledTemplate> => {
    const [subject, html, text] = await Promise.all([read(name, 'subject'), read(name, 'html'), read(name, 'text')]);
    if (subject === null || (html === null && text === null)) {
      // The directory stays in the server log; the delivery log (shown to site owners) names the template only.
      throw new PermanentDeliveryError(`template "${name}" needs subject.liquid and html.liquid or text.liquid in the templates directory`);
    }
    try {
      return compile({ subject, html: html ?? '', text: text ?? '' });
    } catch (error) {
      throw new PermanentDeliveryError(`template "${name}" failed to parse: ${(error as Error).message.split('\n')[0]}`);
    }
  };
  // Parsing once and reading the files once per RELOAD_MS is what lets the worker keep up with
  // submits (issue #11); a failed load is not kept, so a fixed template works at once.
  const cache = new Map<string, { at: number; template: Promise<CompiledTemplate> }>();
  const builtIn = compile(DEFAULT_TEMPLATE);
  const templateOf = (name: string): Promise<CompiledTemplate> => {
    if (name === 'default') return Promise.resolve(builtIn);
    if (!NAME.test(name)) return Promise.reject(new PermanentDeliveryError(`template name "${name}" is not valid`));
    const now = clock();
    const cached = cache.get(name);
    if (cached && now - cached.at < RELOAD_MS) return cached.template;
    const template = load(name);
    cache.set(name, { at: now, template });
    template.catch(() => cache.delete(name));
    return template;
  };
  return {
    async render(name, scope) {
      const template = await templateOf(name);
      // Rendered synchronously: the templates are parsed and in memory and no filter waits on
      // anything, and the async renderer's promise per tag cost a third of the time (issue #17).
      // The render, memory and parse limits hold in both.
      try {
        return {
          // A subject is one line, whatever the template or the values say.
          subject: TEXT.renderSync(template.subject, scope).replace(/[\r\n]+/g, ' ').trim().slice(0, 300),
          html: template.html === null ? '' : HTML.renderSync(template.html, scope),
          text: template.text === null ? '' : TEXT.renderSync(template.text, scope),
        };
      } catch (error) {
        throw new PermanentDeliveryError(`template "${name}" failed to render: ${(error as Error).message.split('\n')[0]}`);
      }
    },
  };
}
