/**
 * One version for the four packages (issue #33 item 5): @svc/core, @svc/client, @svc/elements and
 * @svc/server carry the same version, each names its siblings at exactly that version (a range
 * would let npm pair a server with another release's core, whose rules and field checks may
 * differ), the client's own CLIENT_VERSION says it too, `svc --version` prints it, and the top
 * released entry of CHANGELOG.md is it.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_VERSION } from '@svc/client';
import { SERVICE_VERSION } from '../src/version.js';
import { REPO_ROOT, runSvc } from './support/svc-command.js';

const PACKAGES = ['core', 'client', 'elements', 'server'] as const;
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'] as const;

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly [field: string]: unknown;
}

const manifests: readonly Manifest[] = PACKAGES.map((dir) => JSON.parse(readFileSync(join(REPO_ROOT, 'packages', dir, 'package.json'), 'utf8')) as Manifest);
const VERSION = manifests.find((manifest) => manifest.name === '@svc/server')?.version as string;

/** Every version problem of the manifests, in words; [] when they agree. */
function versionProblems(list: readonly Manifest[], version: string): string[] {
  const problems: string[] = [];
  const names = new Set(list.map((manifest) => manifest.name));
  for (const manifest of list) {
    if (manifest.version !== version) problems.push(`${manifest.name} is ${manifest.version}, not ${version}`);
    for (const field of DEPENDENCY_FIELDS) {
      const deps = (manifest[field] ?? {}) as Record<string, string>;
      for (const [name, wanted] of Object.entries(deps)) {
        if (names.has(name) && wanted !== version) problems.push(`${manifest.name} ${field} names ${name}@${wanted}, not ${version}`);
      }
    }
  }
  return problems;
}

describe('the version of the four packages', () => {
  it('is one semantic version, which each package also names its siblings at', () => {
    expect(manifests.map((manifest) => manifest.name)).toEqual(['@svc/core', '@svc/client', '@svc/elements', '@svc/server']);
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(versionProblems(manifests, VERSION)).toEqual([]);
  });

  it('finds a package or a sibling dependency at another version', () => {
    const [core, client, elements, server] = manifests as [Manifest, Manifest, Manifest, Manifest];
    const drifted = [{ ...core, version: '9.9.9' }, { ...client, dependencies: { '@svc/core': `^${VERSION}` } }, elements, server];
    expect(versionProblems(drifted, VERSION)).toEqual(['@svc/core is 9.9.9, not ' + VERSION, `@svc/client dependencies names @svc/core@^${VERSION}, not ${VERSION}`]);
  });

  it('is what the client and the service say they are', () => {
    expect(CLIENT_VERSION).toBe(VERSION);
    expect(SERVICE_VERSION).toBe(VERSION);
    const openapi = JSON.parse(readFileSync(join(REPO_ROOT, 'schema/openapi.json'), 'utf8')) as { info: { version: string } };
    expect(openapi.info.version).toBe(VERSION);
  });

  it('is what svc --version prints', async () => {
    const run = await runSvc(['--version'], { cwd: REPO_ROOT, env: process.env, timeoutMs: 90_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`svc ${VERSION}\n`);
  });

  it('is the top released entry of CHANGELOG.md, under an Unreleased section', () => {
    const changelog = readFileSync(join(REPO_ROOT, 'CHANGELOG.md'), 'utf8');
    const headings = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((match) => ({ name: match[1] as string, date: match[2] }));
    expect(headings[0]).toEqual({ name: 'Unreleased', date: undefined });
    expect(headings[1]?.name).toBe(VERSION);
    expect(headings[1]?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Keep a Changelog's link references, one per heading.
    for (const { name } of headings) expect(changelog).toMatch(new RegExp(`^\\[${name.replace(/\./g, '\\.')}\\]: https://`, 'm'));
  });
});
