/**
 * The one HTML escape of the server's pages (demo, console, classic answers, the payment
 * callback), and the plain page a browser is shown when there is nowhere better to send it.
 */
import type { FastifyReply } from 'fastify';
import { htmlLanguageAttributes, type PageLanguage } from './page-language.js';

/**
 * Text for HTML content or a quoted attribute.
 *
 * @example
 * `<p>${escapeHtml(message)}</p>`
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * A page with a title and paragraphs of text, allowed to load nothing (`default-src 'none'`).
 *
 * @example
 * return plainPage(reply, 402, 'Payment not completed', ['The card was declined.']);
 * return plainPage(reply, 422, 'Das Formular wurde nicht gesendet', lines, pageLanguage('de-DE'));
 */
export function plainPage(reply: FastifyReply, status: number, title: string, lines: readonly string[], language: PageLanguage | null = null): FastifyReply {
  const body = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  // The site's language and direction (issue #34); English keeps lang="en" as before.
  const html = `<!doctype html><html ${htmlLanguageAttributes(language, escapeHtml)}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return reply.code(status).header('Content-Security-Policy', "default-src 'none'").type('text/html; charset=utf-8').send(html);
}
