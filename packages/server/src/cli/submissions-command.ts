/** `svc submissions list --form contact [--limit N]`: the newest submissions as a readable table. */
import { SvcError } from '@svc/core';
import { buildApp } from '../app.js';
import { parseListQuery } from '../admin/admin-query.js';
import { createAdminServices } from '../admin/admin-http.js';
import { listSubmissions } from '../admin/admin-service.js';
import { commandConfig, type CommandOptions } from './command-options.js';
import { OPERATOR_KEY } from './export-command.js';

export interface SubmissionsListOptions extends CommandOptions {
  readonly form: string | undefined;
  readonly query: Readonly<Record<string, string>>;
}

/** Titles are what submitters typed: control characters (terminal escapes) never reach the terminal. */
function printable(text: string, width: number): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return clean.length > width ? `${clean.slice(0, width - 1)}…` : clean;
}

export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export async function runSubmissionsList(options: SubmissionsListOptions): Promise<number> {
  if (!options.form) {
    process.stderr.write('svc submissions list needs --form HANDLE\n');
    return 2;
  }
  const svc = await buildApp(commandConfig(options), { logger: false });
  try {
    const services = createAdminServices(svc.context);
    const query = parseListQuery(options.query, services.statuses);
    const page = await listSubmissions(services, OPERATOR_KEY, options.form, query);
    const rows = page.items.map((s) => [String(s.id), s.createdAt.slice(0, 19).replace('T', ' '), s.status, s.isSpam ? 'yes' : 'no', printable(s.title, 60)]);
    process.stdout.write(`${formatTable(['id', 'created', 'status', 'spam', 'title'], rows)}\n`);
    process.stdout.write(`${rows.length} submission(s)${page.nextCursor ? ' (more: raise --limit)' : ''}\n`);
    return 0;
  } catch (error) {
    if (error instanceof SvcError) {
      process.stderr.write(`svc submissions list: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await svc.close();
  }
}
