import { describe, expect, it } from 'vitest';
import { createBucketer, formatDate, zoneOffset } from '../../../src/sim/query/engine/dates.js';

const QUARTER_MS = 900_000;

/** The label of an instant computed from scratch: its quarter hour's local time in the zone. */
function labelFromScratch(unit: 'day' | 'hour', tz: string, ms: number): string {
  const start = Math.floor(ms / QUARTER_MS) * QUARTER_MS;
  const local = start + zoneOffset(tz, start);
  return unit === 'day' ? formatDate(local) : `${formatDate(local)} ${String(new Date(local).getUTCHours()).padStart(2, '0')}:00:00`;
}

describe('bucket labels', () => {
  it.each(['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham'])(
    'label every instant as its own quarter hour does, across daylight-saving changes, in %s',
    (tz) => {
      for (const unit of ['day', 'hour'] as const) {
        const bucket = createBucketer(unit, tz);
        // Around both changes of 2025 in either hemisphere, every 7 minutes (not aligned to quarters).
        for (const [from, to] of [
          [Date.UTC(2025, 2, 28), Date.UTC(2025, 3, 8)],
          [Date.UTC(2025, 8, 25), Date.UTC(2025, 10, 4)],
        ] as const) {
          for (let ms = from; ms < to; ms += 7 * 60_000) expect(bucket(ms)).toBe(labelFromScratch(unit, tz, ms));
        }
      }
    },
  );
});
