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

/** User plus system CPU of `pid` and its descendants, in microseconds; null off Linux. */
export function treeCpuMicros(pid: number | undefined): number | null {
  if (pid === undefined || process.platform !== 'linux') return null;
  let ticks = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop() as number;
    ticks += ownCpuTicks(next);
    pending.push(...childrenOf(next));
  }
  return (ticks * 1_000_000) / TICKS_PER_SECOND;
}
