import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// issue #31 item 15: DESIGN "Feature rooms" — the ground floor never imports a feature and shared
// types live below both sides, so the source has no import circles. This walks every import the
// compiler would follow (type-only and dynamic ones too: a type-only circle is still a circle of
// knowledge) and fails naming each circle.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PACKAGES = join(ROOT, 'packages');

function listTypeScript(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listTypeScript(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `@svc/client/payments` -> packages/client/src/payment-requests.ts, read from each package's exports. */
function workspaceEntries(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const name of readdirSync(PACKAGES)) {
    const manifestPath = join(PACKAGES, name, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      name: string;
      exports?: Record<string, string | Record<string, string>>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === 'string' ? undefined : target['svc-source'];
      if (source) entries.set(join(manifest.name, subpath), join(PACKAGES, name, source));
    }
  }
  return entries;
}

function resolveImport(from: string, specifier: string, entries: Map<string, string>): string | undefined {
  if (!specifier.startsWith('.')) return entries.get(specifier);
  // NodeNext sources name the emitted file: './x.js' is './x.ts' here.
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

function readImportGraph(): Map<string, string[]> {
  const entries = workspaceEntries();
  const files = readdirSync(PACKAGES)
    .filter((name) => existsSync(join(PACKAGES, name, 'src')))
    .flatMap((name) => listTypeScript(join(PACKAGES, name, 'src')));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => resolveImport(file, imported.fileName, entries))
      .filter((target): target is string => target !== undefined && target !== file);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Tarjan's strongly connected components; a component of more than one file is a circle. */
function findCircles(graph: Map<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** One shortest loop through a component's first file, so the message shows an edge to cut. */
function shortestLoop(graph: Map<string, readonly string[]>, component: readonly string[]): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at += 1) {
    const node = queue[at]!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const loop = [node];
        while (loop[0] !== start) loop.unshift(previous.get(loop[0]!)!);
        return [...loop, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

function describeCircles(graph: Map<string, readonly string[]>): string[] {
  const name = (file: string) => relative(PACKAGES, file);
  return findCircles(graph).map(
    (component) =>
      `${component.length} files: ${component.map(name).join(', ')}\n    e.g. ${shortestLoop(graph, component).map(name).join(' -> ')}`,
  );
}

describe('import graph', () => {
  it('finds a circle, a type-only one included, and names its files', () => {
    const a = '/p/a.ts';
    const b = '/p/b.ts';
    const c = '/p/c.ts';
    const graph = new Map([[a, [b]], [b, [c]], [c, [a]], ['/p/d.ts', [a]]]);
    expect(findCircles(graph)).toEqual([[a, b, c]]);
    expect(shortestLoop(graph, [a, b, c])).toEqual([a, b, c, a]);
    const { importedFiles } = ts.preProcessFile("import type { X } from './x.js';\nexport * from './y.js';", true, true);
    expect(importedFiles.map((imported) => imported.fileName)).toEqual(['./x.js', './y.js']);
  });

  it('has no import circles in any package source (type-only and dynamic imports count)', () => {
    const graph = readImportGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(describeCircles(graph), 'import circles (DESIGN: Feature rooms)').toEqual([]);
  });
});
