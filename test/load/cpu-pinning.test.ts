import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { allowedCpus, cpusOf, pinProcess } from '../../load/bench/cpu-pinning.js';

describe("the bench's CPU pinning", () => {
  it('reads the CPU numbers of a taskset list', () => {
    expect(cpusOf('0-1')).toEqual([0, 1]);
    expect(cpusOf('0,2-3')).toEqual([0, 2, 3]);
    expect(cpusOf('5')).toEqual([5]);
  });

  it.runIf(process.platform === 'linux' && 'list' in allowedCpus(process.pid))('gives a process back every CPU it had after pinning it to one', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const before = allowedCpus(child.pid!);
      if (!('list' in before)) throw new Error('taskset could not read the child');
      const [first] = cpusOf(before.list);
      pinProcess(child.pid!, String(first));
      expect(allowedCpus(child.pid!)).toEqual({ list: String(first) });
      pinProcess(child.pid!, before.list);
      expect(allowedCpus(child.pid!)).toEqual(before);
    } finally {
      child.kill();
    }
  });
});
