/**
 * Email templates (issue #5), rendered with LiquidJS in a sandbox: no file system (no partials), no
 * prototype access, bounded render time and memory, and every value HTML-escaped in the html
 * part. Templates can loop over `fields` (label, handle, value as text) and `files`. An email is
 * written in its site's language (issue #34 item 4): the template's variant for that language
 * when it has one (email-template-files.ts), labels from the form's translation, svc's own words
 * from the catalogue (`words`), and `lang`/`dir` on the html part.
 */
import { join } from 'node:path';
import { Liquid } from 'liquidjs';
import type { Field, Form } from '@svc/core';
import { PermanentDeliveryError, type DeliveryPayload } from './delivery-model.js';
import { booleanWord, emailDirection, emailWords, fileWords, markHtmlLanguage } from './email-language.js';
import { TEMPLATE_NAME, completeSource, pickVariant, readTemplateParts, variantTags, type TemplateSource } from './email-template-files.js';

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

/**
 * Built in, used when a form names no template: every field, in order. Its own words are the
 * catalogue's in the email's language (`words`, `file.sizeText`, `file.caption`), not Liquid text;
 * labels sit on the side a right-to-left language starts from.
 */
const DEFAULT_TEMPLATE: TemplateSource = {
  subject: '{{ words.subject }}',
  html: '<h1>{{ form.name }}</h1>\n<table>{% for field in fields %}<tr><th align="{% if dir == "rtl" %}right{% else %}left{% endif %}">{{ field.label }}</th><td>{{ field.value }}</td></tr>{% endfor %}</table>\n{% if files.size > 0 %}<p>{{ words.files }}</p><ul>{% for file in files %}<li>{{ file.name }} ({{ file.sizeText }}){% if file.url %} <a href="{{ file.url }}">{{ words.download }}</a>{% endif %}</li>{% endfor %}</ul>{% endif %}',
  text: '{{ form.name }}\n\n{% for field in fields %}{{ field.label }}: {{ field.value }}\n{% endfor %}{% for file in files %}{{ file.caption }}{% if file.url %} {{ file.url }}{% endif %}\n{% endfor %}',
};

export interface RenderedEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

function displayValue(value: unknown, language: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return booleanWord(language, value);
  if (Array.isArray(value)) return value.map((v) => (Array.isArray(v) ? v.map((w) => displayValue(w, language)).join(' | ') : displayValue(v, language))).join(', ');
  return String(value);
}

/**
 * A choice field's value with each picked option's label in place of its value (select, radios,
 * checkboxes, dynamic recipients, an opinion scale's scales); a value no option has stays as it is.
 */
function optionLabels(field: Field, value: unknown): unknown {
  const options = 'options' in field ? field.options : field.type === 'opinionScale' ? field.scales : null;
  if (!options || options.length === 0) return value;
  const labelOf = (one: unknown) => (typeof one === 'string' ? (options.find((option) => option.value === one)?.label ?? one) : one);
  return Array.isArray(value) ? value.map(labelOf) : labelOf(value);
}

/**
 * The scope every template sees: plain data, nothing callable. `form` is the form as the email's
 * site reads it (its translated labels and option labels); `language` is that site's language.
 * A choice field's `value` is what the person picked as they read it (the option's label), its
 * `rawValue` the stored option value (`dept_sales`), as are `values`; `labels` holds the shown
 * text per handle for templates that do not loop over `fields`.
 */
export function templateScope(form: Form | undefined, payload: DeliveryPayload, fileUrl: (id: string) => string | null, language = 'en-US') {
  const fields = (form?.fields ?? [])
    .filter((f) => f.handle !== null && f.type !== 'submit' && Object.hasOwn(payload.values, f.handle))
    .map((f) => {
      const raw = payload.values[f.handle as string];
      return { handle: f.handle as string, label: f.label, type: f.type, value: displayValue(optionLabels(f, raw), language), rawValue: displayValue(raw, language) };
    });
  return {
    form: payload.form,
    submission: payload.submission,
    values: payload.values,
    fields,
    labels: Object.fromEntries(fields.map((field) => [field.handle, field.value])),
    files: payload.files.map((f) => ({ ...f, url: fileUrl(f.id), ...fileWords(language, f.name, f.size) })),
    // issue #12: `{{ payment.amountFormatted }} {{ payment.currency }}` in a paid form's emails.
    payment: payload.payment ?? null,
    // issue #34: `<html lang="{{ language }}" dir="{{ dir }}">` in a template that writes its own.
    language,
    dir: emailDirection(language),
    words: emailWords(language, payload.form.name, payload.submission.title),
  };
}

export interface EmailTemplates {
  /** `name`'s variant for `language` (else its own files), rendered and its html part marked with the language. */
  render(name: string, scope: object, language?: string): Promise<RenderedEmail>;
}

type Parsed = ReturnType<Liquid['parse']>;

interface CompiledTemplate {
  readonly subject: Parsed;
  readonly html: Parsed | null;
  readonly text: Parsed | null;
}

/** How long a parsed template is trusted before its files are read again (edits show up this fast). */
const RELOAD_MS = 2000;

/** Parses a template's files; throws LiquidJS's error when one does not parse (forms check reports it). */
export function compileTemplate(source: TemplateSource): CompiledTemplate {
  return {
    subject: TEXT.parse(source.subject),
    html: source.html === '' ? null : HTML.parse(source.html),
    text: source.text === '' ? null : TEXT.parse(source.text),
  };
}

/** How a delivery log names a template: `contact-confirmation`, or `contact-confirmation (de)` for a variant. */
const described = (name: string, tag: string | null) => (tag === null ? `"${name}"` : `"${name}" (${tag})`);

export function createEmailTemplates(dir: string, clock: () => number = Date.now): EmailTemplates {
  const load = async (name: string, tag: string | null): Promise<CompiledTemplate> => {
    const source = completeSource(await readTemplateParts(tag === null ? join(dir, name) : join(dir, name, tag)));
    if (source === null) {
      // The directory stays in the server log; the delivery log (shown to site owners) names the template only.
      const where = tag === null ? 'in the templates directory' : `in its ${tag} folder`;
      throw new PermanentDeliveryError(`template ${described(name, tag)} needs subject.liquid and html.liquid or text.liquid ${where}`);
    }
    try {
      return compileTemplate(source);
    } catch (error) {
      throw new PermanentDeliveryError(`template ${described(name, tag)} failed to parse: ${(error as Error).message.split('\n')[0]}`);
    }
  };
  // Parsing once and reading the files once per RELOAD_MS is what lets the worker keep up with
  // submits (issue #11); a failed load is not kept, so a fixed template works at once. A
  // template's list of language folders is read as often.
  const cache = new Map<string, { at: number; value: Promise<unknown> }>();
  const cached = <T>(key: string, make: () => Promise<T>): Promise<T> => {
    const now = clock();
    const entry = cache.get(key);
    if (entry && now - entry.at < RELOAD_MS) return entry.value as Promise<T>;
    const value = make();
    cache.set(key, { at: now, value });
    value.catch(() => cache.delete(key));
    return value;
  };
  const builtIn = compileTemplate(DEFAULT_TEMPLATE);
  const templateOf = async (name: string, language: string | undefined): Promise<{ template: CompiledTemplate; tag: string | null }> => {
    if (name === 'default') return { template: builtIn, tag: null };
    if (!TEMPLATE_NAME.test(name)) throw new PermanentDeliveryError(`template name "${name}" is not valid`);
    const tags = language === undefined ? [] : await cached(`${name}\u0000tags`, () => variantTags(join(dir, name)));
    const tag = language === undefined ? null : pickVariant(tags, language);
    return { template: await cached(tag === null ? name : `${name}/${tag}`, () => load(name, tag)), tag };
  };
  return {
    async render(name, scope, language) {
      const { template, tag } = await templateOf(name, language);
      // Rendered synchronously: the templates are parsed and in memory and no filter waits on
      // anything, and the async renderer's promise per tag cost a third of the time (issue #17).
      // The render, memory and parse limits hold in both.
      try {
        const html = template.html === null ? '' : HTML.renderSync(template.html, scope);
        return {
          // A subject is one line, whatever the template or the values say.
          subject: TEXT.renderSync(template.subject, scope).replace(/[\r\n]+/g, ' ').trim().slice(0, 300),
          html: language === undefined ? html : markHtmlLanguage(html, language),
          text: template.text === null ? '' : TEXT.renderSync(template.text, scope),
        };
      } catch (error) {
        throw new PermanentDeliveryError(`template ${described(name, tag)} failed to render: ${(error as Error).message.split('\n')[0]}`);
      }
    },
  };
}
