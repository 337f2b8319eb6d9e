/**
 * CPU time of a bench target, read from /proc for the process and every descendant (a target runs
 * under tsx, whose node child is the server): the figure of issue #17 that stays stable on a busy
 * machine, since it counts only the target's own work. Linux only; elsewhere it reports nothing.
 */
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

function childrenOf(pid: number): number[] {
  try {
    const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return tasks === '' ? [] : tasks.split(/\s+/).map(Number);
  } catch {
    return [];
  }
}

function ownCpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

function ownRssBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The sum of `read` over `pid` and its descendants; null off Linux. */
function overTree(pid: number | undefined, read: (pid: number) => number): number | null {
  if (pid === undefined || process.platform !== 'linux') return null;
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop() as number;
    total += read(next);
    pending.push(...childrenOf(next));
  }
  return total;
}

/** User plus system CPU of `pid` and its descendants, in microseconds; null off Linux. */
export function treeCpuMicros(pid: number | undefined): number | null {
  const ticks = overTree(pid, ownCpuTicks);
  return ticks === null ? null : (ticks * 1_000_000) / TICKS_PER_SECOND;
}

/** Resident memory of `pid` and its descendants, in bytes; null off Linux. */
export function treeRssBytes(pid: number | undefined): number | null {
  return overTree(pid, ownRssBytes);
}
