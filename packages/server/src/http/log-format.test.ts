import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { createPrettyStream, prettyLogLine, wantsPrettyLogs } from './log-format.js';

describe('log format', () => {
  it('turns a JSON line into time, level, message, request id and key=value fields', () => {
    const line = JSON.stringify({ level: 30, time: Date.parse('2026-11-25T10:46:40Z'), pid: 1, hostname: 'h', reqId: 'r1', msg: 'request completed', res: { statusCode: 200 }, responseTime: 3.2 });
    expect(prettyLogLine(line)).toBe('10:46:40 INFO  request completed [r1] res.statusCode=200 responseTime=3.2');
    expect(prettyLogLine(JSON.stringify({ level: 50, time: 0, msg: 'boom', err: { message: 'two words' } }))).toBe('00:00:00 ERROR boom err.message="two words"');
    expect(prettyLogLine('not json')).toBe('not json');
  });

  it('writes whole lines only, however the JSON arrives', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const stream = createPrettyStream(out);
    const line = JSON.stringify({ level: 40, time: 0, msg: 'half' });
    stream.write(line.slice(0, 10));
    stream.write(`${line.slice(10)}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(text).toBe('00:00:00 WARN  half\n');
  });

  it('is readable on a terminal with auto, JSON elsewhere', () => {
    expect(wantsPrettyLogs('auto', true)).toBe(true);
    expect(wantsPrettyLogs('auto', false)).toBe(false);
    expect(wantsPrettyLogs('json', true)).toBe(false);
    expect(wantsPrettyLogs('pretty', false)).toBe(true);
  });
});
