import { describe, expect, it } from 'vitest';
import { count, duration, inSeconds, span, timeOfDay } from '../../src/inspector/format.js';

describe('how the inspector writes times and counts', () => {
  it('writes a window in its largest whole unit', () => {
    expect([3_600_000, 600_000, 60_000, 30_000, 1_500].map(span)).toEqual(['1 h', '10 min', '1 min', '30 s', '1500 ms']);
  });

  it('writes an elapsed time rounded for reading', () => {
    expect([0, 250, 12_540, 200_000, 120_000].map(duration)).toEqual(['0 s', '250 ms', '12.5 s', '3 min 20 s', '2 min']);
  });

  it('writes when something happens from now', () => {
    expect([0, -5, 2_500, 42_100].map(inSeconds)).toEqual(['now', 'now', 'in 2.5 s', 'in 43 s']);
  });

  it('writes instants in UTC to the millisecond, and counts with separators', () => {
    expect(timeOfDay(Date.UTC(2025, 5, 2, 9, 5, 7, 42))).toBe('09:05:07.042');
    expect(count(1234567)).toBe('1,234,567');
  });
});
