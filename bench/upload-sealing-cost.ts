/**
 * What sealing an upload's bytes costs by itself (issue #37 items 1, 6), beside the upload ratio it
 * is part of: CPU of one thread per MiB sealed as it streams in (64 KiB chunks, files/upload-
 * sealing.ts) and per MiB opened as it streams out, over 64 KiB pieces as a socket delivers them.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { createChunkSealer, openSealedStream } from '../packages/server/src/files/upload-sealing.js';

export interface UploadSealingCost {
  readonly sealMicrosPerMiB: number;
  readonly openMicrosPerMiB: number;
  readonly mebibytes: number;
}

export async function measureUploadSealingCost(mebibytes = 64): Promise<UploadSealingCost> {
  const key = randomBytes(32);
  const piece = randomBytes(64 * 1024);
  const pieces = mebibytes * 16;
  const seal = () => {
    const sealer = createChunkSealer(key, 'bench/file.bin');
    const out: Buffer[] = [];
    for (let i = 0; i < pieces; i++) out.push(...sealer.update(piece));
    out.push(...sealer.final());
    return out;
  };
  seal(); // warm-up: JIT and the cipher implementation
  let started = process.cpuUsage();
  const sealed = seal();
  let used = process.cpuUsage(started);
  const sealMicrosPerMiB = (used.user + used.system) / mebibytes;
  started = process.cpuUsage();
  let bytes = 0;
  for await (const chunk of openSealedStream(Readable.from(sealed), key, 'bench/file.bin')) bytes += (chunk as Buffer).length;
  used = process.cpuUsage(started);
  if (bytes !== pieces * piece.length) throw new Error('the sealed file did not open whole');
  return { sealMicrosPerMiB, openMicrosPerMiB: (used.user + used.system) / mebibytes, mebibytes };
}

export function printUploadSealingCost(cost: UploadSealingCost): void {
  process.stdout.write('\n| sealing an upload (issue #37), CPU of one thread | µs per MiB | MiB/s |\n|---|---|---|\n');
  process.stdout.write(`| seal as it streams in (64 KiB chunks) | ${cost.sealMicrosPerMiB.toFixed(0)} | ${(1e6 / cost.sealMicrosPerMiB).toFixed(0)} |\n`);
  process.stdout.write(`| open as it streams out | ${cost.openMicrosPerMiB.toFixed(0)} | ${(1e6 / cost.openMicrosPerMiB).toFixed(0)} |\n`);
  process.stdout.write(`bench upload-sealing seal_us_per_mib=${cost.sealMicrosPerMiB.toFixed(0)} open_us_per_mib=${cost.openMicrosPerMiB.toFixed(0)} mib=${cost.mebibytes}\n`);
}
