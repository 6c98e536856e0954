import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWriteBatch } from '../../src/http/write-batch.js';

describe('the batch of answers written per turn of the event loop', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes nothing while the turn's callbacks run, then every deferred write in the order it was deferred", async () => {
    const batch = createWriteBatch();
    const written: string[] = [];
    batch.defer(() => written.push('first'));
    await Promise.resolve();
    batch.defer(() => written.push('second'));
    expect(written).toEqual([]);
    await new Promise<void>((resolve) => batch.defer(resolve));
    expect(written).toEqual(['first', 'second']);
    batch.defer(() => written.push('next turn'));
    await new Promise<void>((resolve) => batch.defer(resolve));
    expect(written).toEqual(['first', 'second', 'next turn']);
  });

  it("still writes when a test's fake timers have replaced setImmediate", async () => {
    const batch = createWriteBatch();
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout'] });
    const written = await new Promise<string>((resolve) => batch.defer(() => resolve('written')));
    expect(written).toBe('written');
  });
});
