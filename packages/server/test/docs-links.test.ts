/**
 * No page links to a missing one (issue #33): every relative link in README.md, CHANGELOG.md and
 * docs/*.md points at a file that exists, and a `#anchor` at a heading of that page, slugged as
 * GitHub slugs them.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { REPO, docPages } from './support/docs-blocks.js';

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = (heading[1] as string)
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** The relative link targets of a page (`[text](target)` and `![alt](target)`), outside code. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

function brokenLinks(page: string): string[] {
  const text = readFileSync(join(REPO, page), 'utf8');
  return linksOf(text).flatMap((target) => {
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const file = path === '' ? join(REPO, page) : join(REPO, dirname(page), path);
    if (!existsSync(file)) return [`${page}: ${target} (no ${relative(REPO, file)})`];
    if (anchor === undefined || statSync(file).isDirectory()) return [];
    return headingSlugs(readFileSync(file, 'utf8')).has(anchor) ? [] : [`${page}: ${target} (no heading #${anchor} in ${relative(REPO, file)})`];
  });
}

const PAGES = [...docPages(), ...(existsSync(join(REPO, 'CHANGELOG.md')) ? ['CHANGELOG.md'] : [])];

describe('the links of the docs', () => {
  it.each(PAGES)('%s links only to files and headings that exist', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it('slugs headings as GitHub does', () => {
    const slugs = headingSlugs('# Classic rendering: plain HTML forms\n## `svc init` and more\n## Notes\n## Notes\n```sh\n# not a heading\n```\n');
    expect([...slugs]).toEqual(['classic-rendering-plain-html-forms', 'svc-init-and-more', 'notes', 'notes-1']);
  });

  it('finds a link to a missing page and to a missing heading', () => {
    expect(linksOf('see [a](missing.md) and [b](rest.md#nowhere), not `[c](code.md)` or [d](https://x.test)')).toEqual(['missing.md', 'rest.md#nowhere']);
  });
});
