/**
 * The command blocks of README.md and docs/*.md (issue #33): each ```sh block is preceded by a
 * `<!-- runs in: <test file> -->` line naming the test that runs it as written. Tests read the
 * blocks of a page from here, in page order, so a block moved or edited on the page is what runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '../../../..');

export interface DocBlock {
  /** Its page, from the repository root (`docs/rest.md`). */
  readonly page: string;
  /** The fence's language (`sh`, `text`, `yaml`, … or '' for none). */
  readonly lang: string;
  readonly body: string;
  /** The test file the line above the fence names, if it has one. */
  readonly runsIn: string | undefined;
  /** 1-based line of the opening fence. */
  readonly line: number;
}

const MARKER = /^<!-- runs in: (\S+) -->$/;

/** README.md, CHANGELOG.md when it exists, and every docs/*.md, from the repository root. */
export function docPages(): string[] {
  const docs = readdirSync(join(REPO, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  return ['README.md', ...docs.sort()];
}

export function readPage(page: string): string {
  return readFileSync(join(REPO, page), 'utf8');
}

/** Every fenced block of `page`, with the runs-in marker of the line above it. */
export function pageBlocks(page: string): DocBlock[] {
  const lines = readPage(page).split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\S*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const close = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    if (close < 0) throw new Error(`${page}:${i + 1}: a fence that never closes`);
    // The marker is the line right above the fence.
    const marker = MARKER.exec((lines[i - 1] ?? '').trim());
    blocks.push({ page, lang: open[1] ?? '', body: lines.slice(i + 1, close).join('\n'), runsIn: marker?.[1], line: i + 1 });
    i = close;
  }
  return blocks;
}

/** Whether a block is one of commands to run (and so needs a runs-in marker). */
export function isCommandBlock(block: DocBlock): boolean {
  return block.lang === 'sh' || block.lang === 'bash' || block.lang === 'shell' || block.lang === 'console';
}

/** The command blocks of `page` in page order; fails when there are none, so a moved block is noticed. */
export function commandBlocks(page: string): string[] {
  const blocks = pageBlocks(page).filter(isCommandBlock).map((block) => `${block.body}\n`);
  if (blocks.length === 0) throw new Error(`${page} has no command block`);
  return blocks;
}
