/**
 * The targets run on plain Node, as `svc serve` does: bench/*.ts are transpiled (not bundled) by
 * esbuild into `.bench-build/`, a sibling of bench/ so every `../examples` and `../packages` path
 * resolves as it does from the sources, and package imports resolve from the root node_modules.
 * Under tsx a target carried tsx's loader thread and source maps switched on for every module it
 * loaded, which the baseline beside it carried too but which is no part of what a user runs
 * (issue #31 item 14: a manifest measured 0.81 of its baseline on a slower machine, not reproduced
 * here; this takes one difference between the bench and production away).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const BENCH = import.meta.dirname;
const OUT = resolve(BENCH, '../.bench-build');

let compiled: Promise<string> | undefined;

/** The path of the compiled bench-targets script (compiled once per bench run). */
export function compiledTargets(): Promise<string> {
  compiled ??= build({
    entryPoints: readdirSync(BENCH)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(BENCH, name)),
    outdir: OUT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  }).then(() => join(OUT, 'bench-targets.js'));
  return compiled;
}
