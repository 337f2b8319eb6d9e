import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './export-format.js';

describe('csvCell', () => {
  it.each([
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+1 555 0100', "'+1 555 0100"],
    ['-2+3', "'-2+3"],
    ['@cmd', "'@cmd"],
    ['\tindent', "'\tindent"],
    ['\rreturn', `"'\rreturn"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
  ])('defuses a formula-like cell %j', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['crlf\r\nend', '"crlf\r\nend"'],
    ['', ''],
    ['a=b', 'a=b'],
    ["'quoted", "'quoted"],
  ])('quotes per RFC 4180 only when needed: %j', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it('ends every record with CRLF', () => {
    expect(csvLine(['a', 'b,c'])).toBe('a,"b,c"\r\n');
  });
});
