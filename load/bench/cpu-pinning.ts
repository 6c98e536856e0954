/**
 * The bench's CPU pinning (Linux, `taskset`): which CPUs a process may use, and setting them.
 * What a pinned process allows is read before pinning and given back after, never computed
 * from `os.availableParallelism()`, which counts the CPUs of the calling thread: once this
 * process is pinned to one CPU it answers 1, and a process "unpinned" to `0-0` stays on CPU 0
 * with everything it spawns.
 */
import { execFileSync } from 'node:child_process';

/** Most CPUs a list is read for (a taskset list names a machine's CPUs; far fewer in practice). */
const MAX_CPUS = 4096;

/**
 * The CPUs `pid` may use now, as taskset lists them (`0-1`, `0,2-3`), or why they cannot be
 * read (not Linux, no taskset).
 */
export function allowedCpus(pid: number): { readonly list: string } | { readonly problem: string } {
  if (process.platform !== 'linux') return { problem: 'needs Linux' };
  let out: string;
  try {
    out = execFileSync('taskset', ['-p', '-c', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    const said = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { problem: `taskset could not read the CPUs (${said})` };
  }
  const list = /:\s*([\d,-]+)\s*$/.exec(out)?.[1];
  return list === undefined ? { problem: `taskset answered ${JSON.stringify(out.trim().slice(0, 80))}` } : { list };
}

/** The CPU numbers a taskset list names, ascending (`0,2-3` → 0, 2, 3), at most {@link MAX_CPUS}. */
export function cpusOf(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.split(',')) {
    const [from, to = from] = part.split('-').map(Number) as [number, number?];
    for (let cpu = from; cpu <= (to as number) && cpus.length < MAX_CPUS; cpu++) cpus.push(cpu);
  }
  return cpus.sort((a, b) => a - b);
}

/** Sets the CPUs a running process may use (its main thread, and so what it spawns from then on). */
export function pinProcess(pid: number, cpus: string): void {
  execFileSync('taskset', ['-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}
