import { describe, expect, it } from 'vitest';
import { createProgressBar } from './progress-bar.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream };
}

describe('createProgressBar', () => {
  it('draws a bar with percentage and counts on a terminal, and ends the line when finished', () => {
    const { writes, stream } = fakeStream(true);
    const bar = createProgressBar(200, 'Exporting contact', stream);
    bar.update(100);
    bar.finish();
    expect(writes[0]).toBe(`\rExporting contact [${'-'.repeat(30)}] 0% 0/200`);
    expect(writes).toContain(`\rExporting contact [${'#'.repeat(15)}${'-'.repeat(15)}] 50% 100/200`);
    expect(writes.slice(-2)).toEqual([`\rExporting contact [${'#'.repeat(30)}] 100% 200/200`, '\n']);
  });

  it('writes nothing when the stream is not a terminal', () => {
    const { writes, stream } = fakeStream(false);
    const bar = createProgressBar(10, 'x', stream);
    bar.update(5);
    bar.finish();
    expect(writes).toEqual([]);
  });

  it('shows a full bar for an empty export', () => {
    const { writes, stream } = fakeStream(true);
    createProgressBar(0, 'x', stream).finish();
    expect(writes.at(-2)).toContain('100% 0/0');
  });
});
