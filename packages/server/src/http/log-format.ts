/**
 * How the log reads (issue #16): JSON lines for machines (`log.format: json`, and `auto` when
 * stdout is not a terminal), and one readable line per entry on a terminal: time, level, message,
 * request id, then the other fields as key=value. No dependency: pino writes JSON, this reads it.
 */
import { Writable } from 'node:stream';

const LEVELS: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const SKIP = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'v']);

function flatten(value: unknown, prefix: string, out: string[]): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
    return;
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  out.push(`${prefix}=${/\s/.test(text) ? JSON.stringify(text) : text}`);
}

/**
 * One JSON log line as a readable one; a line that is not JSON is kept as it is.
 *
 * @example
 * prettyLogLine('{"level":30,"time":1795570000000,"reqId":"r1","msg":"request completed","responseTime":3.2}');
 * // '10:46:40 INFO  request completed [r1] responseTime=3.2'
 */
export function prettyLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '--:--:--';
  const level = LEVELS[Number(entry.level)] ?? String(entry.level);
  const fields: string[] = [];
  for (const [key, value] of Object.entries(entry)) if (!SKIP.has(key)) flatten(value, key, fields);
  const reqId = typeof entry.reqId === 'string' ? ` [${entry.reqId}]` : '';
  return `${time} ${level} ${String(entry.msg ?? '')}${reqId}${fields.length > 0 ? ` ${fields.join(' ')}` : ''}`;
}

/** A destination for pino that writes readable lines to `out`. */
export function createPrettyStream(out: NodeJS.WritableStream = process.stdout): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line !== '') out.write(`${prettyLogLine(line)}\n`);
      done();
    },
  });
}

/** Whether `format` asks for readable lines here: `pretty`, or `auto` on a terminal. */
export function wantsPrettyLogs(format: 'auto' | 'json' | 'pretty', isTty = process.stdout.isTTY === true): boolean {
  return format === 'pretty' || (format === 'auto' && isTty);
}
