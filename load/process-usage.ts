/**
 * What a local process has used, read from `/proc` (Linux): CPU time and resident memory. The
 * bench, the soak and the measuring tools read them the same way; elsewhere, or when the process
 * is gone, each answers undefined.
 */
import { readFileSync } from 'node:fs';

/** USER_HZ on Linux: `/proc/<pid>/stat` counts CPU time in ticks of 10 ms. */
const TICK_US = 10_000;

/** utime + stime of one process, in ticks. */
function ticksOf(pid: string): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime, the 14th and 15th fields of the line.
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * CPU time (user + system) a process has used so far, in µs; with `children`, its direct
 * children's too (a `--workers` primary with its workers).
 */
export function processCpuUs(pid: number | undefined, options: { readonly children?: boolean } = {}): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    const ids = [String(pid)];
    if (options.children === true) ids.push(...readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean));
    return ids.reduce((sum, id) => sum + ticksOf(id), 0) * TICK_US;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process now, in MB. */
export function residentMb(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Number(match[1]) / 1024;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) this process used since `since` (a `process.cpuUsage()`), in ms. */
export function ownCpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}
