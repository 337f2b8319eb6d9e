/**
 * Every command block of the docs is claimed by a test that runs it (issue #33): each ```sh (or
 * ```bash) block of README.md and docs/*.md has a `<!-- runs in: <test file> -->` line right
 * before it, the file exists, and it reads that page. Blocks that are not commands to run
 * (config files, units, output, synopses) are ```yaml, ```ini, ```text and so on.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { REPO, docPages, isCommandBlock, pageBlocks, type DocBlock } from './support/docs-blocks.js';

function problemsOf(block: DocBlock): string[] {
  const where = `${block.page}:${block.line}`;
  if (!block.runsIn) return [`${where}: a \`\`\`${block.lang} block without a "<!-- runs in: <test file> -->" line right before it (or make it \`\`\`text if it is not commands to run)`];
  const file = join(REPO, block.runsIn);
  if (!existsSync(file)) return [`${where}: runs in ${block.runsIn}, which does not exist`];
  const text = readFileSync(file, 'utf8');
  // The test names the page by its path or its file name (README.md by "README").
  const names = [block.page, basename(block.page), block.page === 'README.md' ? 'README' : basename(block.page, '.md') + '.md'];
  if (!names.some((name) => text.includes(name))) return [`${where}: ${block.runsIn} never names ${block.page}, so it cannot be running this block`];
  return [];
}

describe('the command blocks of the docs', () => {
  it.each(docPages())('%s: every command block names an existing test that reads the page', (page) => {
    const problems = pageBlocks(page).filter(isCommandBlock).flatMap(problemsOf);
    expect(problems).toEqual([]);
  });

  it('finds a command block without a marker, or with a test that does not read its page', () => {
    // A page name this file does not contain as written.
    const page = ['docs', `un${'named'}.md`].join('/');
    const bare: DocBlock = { page, lang: 'sh', body: 'echo hi', runsIn: undefined, line: 3 };
    expect(problemsOf(bare)[0]).toMatch(/without a "<!-- runs in/);
    const elsewhere: DocBlock = { ...bare, runsIn: 'packages/server/test/docs-pages.test.ts' };
    expect(problemsOf(elsewhere)[0]).toMatch(/never names docs\/unnamed\.md/);
    expect(problemsOf({ ...bare, runsIn: 'packages/server/test/nope.test.ts' })[0]).toMatch(/does not exist/);
  });

  it('reads a marker only from the line right before the fence', () => {
    const blocks = pageBlocks('docs/rest.md').filter(isCommandBlock);
    expect(blocks.map((block) => block.runsIn)).toEqual(['packages/server/test/docs-walkthrough.test.ts']);
  });
});
