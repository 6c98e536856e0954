import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/sim/simulator.js';
import {
  advanceClock,
  column,
  daysBetween,
  PRESETS,
  rowsOf,
  runQuery,
  setClock,
  STORE,
  sumOf,
  withoutRequestId,
  WWW,
  type Target,
} from './support.js';

/** First and last date of the events_by_date rows of a preset (and the row count). */
async function presetRange(sim: Simulator, preset: string, target: Target = WWW): Promise<[string, string, number]> {
  const res = await runQuery(sim, { parameters: ['summary_metrics'], preset, limit: 10000 }, target);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  const dates = column<string>(rowsOf(res, 'summary_metrics'), 'date');
  return [dates[0] as string, dates[dates.length - 1] as string, dates.length];
}

describe('date presets at the default clock (Monday 2025-06-02T12:00:00Z)', () => {
  const sim = freshSimulator();
  const expected: Record<(typeof PRESETS)[number], [string, string]> = {
    today: ['2025-06-02', '2025-06-02'],
    yesterday: ['2025-06-01', '2025-06-01'],
    last_7d: ['2025-05-27', '2025-06-02'],
    last_14d: ['2025-05-20', '2025-06-02'],
    last_30d: ['2025-05-04', '2025-06-02'],
    last_90d: ['2025-03-05', '2025-06-02'],
    this_week: ['2025-06-01', '2025-06-02'],
    last_week: ['2025-05-25', '2025-05-31'],
    this_month: ['2025-06-01', '2025-06-02'],
    last_month: ['2025-05-01', '2025-05-31'],
    this_year: ['2025-01-01', '2025-06-02'],
  };

  it('covers all 11 presets', () => {
    expect(Object.keys(expected)).toEqual([...PRESETS]);
  });

  it.each(Object.entries(expected))('resolves %s to %j with one row per day', async (preset, [first, last]) => {
    const [from, to, count] = await presetRange(sim, preset);
    expect([from, to]).toEqual([first, last]);
    expect(count).toBe(daysBetween(first, last).length);
  });

  it('lets the preset win over startDate and endDate given alongside it', async () => {
    const res = await runQuery(sim, { parameters: ['events_by_date'], preset: 'yesterday', startDate: '2024-01-01', endDate: '2024-01-31' });
    expect(column(rowsOf(res, 'events_by_date'), 'date')).toEqual(['2025-06-01']);
  });

  it('gives a preset the same rows as the explicit dates it stands for', async () => {
    const preset = await runQuery(sim, { parameters: ['top_pages', 'browser_name'], preset: 'last_week' });
    const explicit = await runQuery(sim, { parameters: ['top_pages', 'browser_name'], startDate: '2025-05-25', endDate: '2025-05-31' });
    expect(preset.json.data).toEqual(explicit.json.data);
  });
});

describe('date presets follow the virtual clock', () => {
  it('resolves the week and month presets on a Saturday in July', async () => {
    const sim = freshSimulator();
    await setClock(sim, '2025-07-05T08:00:00Z');
    expect(await presetRange(sim, 'today')).toEqual(['2025-07-05', '2025-07-05', 1]);
    expect(await presetRange(sim, 'this_week')).toEqual(['2025-06-29', '2025-07-05', 7]);
    expect(await presetRange(sim, 'last_week')).toEqual(['2025-06-22', '2025-06-28', 7]);
    expect(await presetRange(sim, 'this_month')).toEqual(['2025-07-01', '2025-07-05', 5]);
    expect(await presetRange(sim, 'last_month')).toEqual(['2025-06-01', '2025-06-30', 30]);
    expect(await presetRange(sim, 'last_7d')).toEqual(['2025-06-29', '2025-07-05', 7]);
  });

  it('starts this_week on the day itself when the clock is on a Sunday', async () => {
    const sim = freshSimulator();
    await setClock(sim, '2025-06-08T12:00:00Z');
    expect(await presetRange(sim, 'this_week')).toEqual(['2025-06-08', '2025-06-08', 1]);
    expect(await presetRange(sim, 'last_week')).toEqual(['2025-06-01', '2025-06-07', 7]);
  });

  it('crosses the year boundary on January 1st', async () => {
    const sim = freshSimulator();
    await setClock(sim, '2026-01-01T09:00:00Z');
    expect(await presetRange(sim, 'this_year')).toEqual(['2026-01-01', '2026-01-01', 1]);
    expect(await presetRange(sim, 'yesterday')).toEqual(['2025-12-31', '2025-12-31', 1]);
    expect(await presetRange(sim, 'last_month')).toEqual(['2025-12-01', '2025-12-31', 31]);
    expect(await presetRange(sim, 'this_month')).toEqual(['2026-01-01', '2026-01-01', 1]);
  });

  it('ends last_month on February 29th in a leap year', async () => {
    const sim = freshSimulator();
    await setClock(sim, '2028-03-01T12:00:00Z');
    expect(await presetRange(sim, 'last_month')).toEqual(['2028-02-01', '2028-02-29', 29]);
    expect(await presetRange(sim, 'yesterday')).toEqual(['2028-02-29', '2028-02-29', 1]);
  });
});

describe('the timezone query parameter', () => {
  it('shifts "today" forward: at 2025-06-02T23:30Z in Asia/Tokyo today is 2025-06-03, whose bounds (UTC wall clock, as the service reads them) are all after now, so it has no rows yet', async () => {
    const sim = freshSimulator();
    await setClock(sim, '2025-06-02T23:30:00Z');
    const tokyo = { ...WWW, timezone: 'Asia/Tokyo' };
    const [, , count] = await presetRange(sim, 'today', tokyo);
    expect(count).toBe(0);
    const [utcFirst, utcLast] = await presetRange(sim, 'today');
    expect([utcFirst, utcLast]).toEqual(['2025-06-02', '2025-06-02']);
    await setClock(sim, '2025-06-03T02:30:00Z');
    const [first] = await presetRange(sim, 'today', tokyo);
    expect(first).toBe('2025-06-03');
  });

  it('resolves a preset in the request time zone to the same range as the explicit local dates', async () => {
    const sim = freshSimulator();
    await setClock(sim, '2025-06-02T23:30:00Z');
    const tokyo = { ...WWW, timezone: 'Asia/Tokyo' };
    const preset = await runQuery(sim, { parameters: ['session_metrics', 'top_pages'], preset: 'today' }, tokyo);
    const june3 = await runQuery(sim, { parameters: ['session_metrics', 'top_pages'], startDate: '2025-06-03', endDate: '2025-06-03' }, tokyo);
    const june2 = await runQuery(sim, { parameters: ['session_metrics', 'top_pages'], startDate: '2025-06-02', endDate: '2025-06-02' }, tokyo);
    expect(preset.json.data).toEqual(june3.json.data);
    expect(preset.json.data).not.toEqual(june2.json.data);
  });

  it('shifts "yesterday" back in a time zone behind UTC', async () => {
    const sim = freshSimulator();
    await setClock(sim, '2025-06-03T03:00:00Z');
    const losAngeles = { ...WWW, timezone: 'America/Los_Angeles' };
    const body = { parameters: ['session_metrics', 'browser_name'] };
    const preset = await runQuery(sim, { ...body, preset: 'yesterday' }, losAngeles);
    const june1 = await runQuery(sim, { ...body, startDate: '2025-06-01', endDate: '2025-06-01' }, losAngeles);
    expect(preset.json.data).toEqual(june1.json.data);
    expect(await presetRange(sim, 'yesterday')).toEqual(['2025-06-02', '2025-06-02', 1]);
  });

  it.each(['Not/AZone', 'bogus', '+05:00', 'Asia/Tokyo; DROP TABLE', ''])('falls back to UTC silently for the invalid time zone %j', async (timezone) => {
    const sim = freshSimulator();
    await setClock(sim, '2025-06-02T23:30:00Z');
    const body = { parameters: ['events_by_date', 'today_metrics', 'top_pages'], preset: 'today', limit: 5 };
    const invalid = await runQuery(sim, body, { ...WWW, timezone });
    const utc = await runQuery(sim, body, WWW);
    expect(invalid.status).toBe(200);
    expect(withoutRequestId(invalid)).toBe(withoutRequestId(utc));
  });

  /** Pageviews of the UTC instants [from, to] (inclusive), summed over summary_metrics rows. */
  async function pageviewsBetween(sim: Simulator, from: string, to: string): Promise<number> {
    return sumOf(rowsOf(await runQuery(sim, { parameters: ['summary_metrics'], startDate: from, endDate: to, limit: 10000 }, STORE), 'summary_metrics'), 'pageviews');
  }

  it('buckets daily rows by the local calendar day of the time zone (Asia/Tokyo, UTC+9)', async () => {
    const sim = freshSimulator();
    const res = await runQuery(sim, { parameters: ['events_by_date'], startDate: '2025-05-26', endDate: '2025-05-28' }, { ...STORE, timezone: 'Asia/Tokyo' });
    const row = rowsOf(res, 'events_by_date').find((r) => r.date === '2025-05-27');
    expect(row?.pageviews).toBe(await pageviewsBetween(sim, '2025-05-26T15:00:00.000Z', '2025-05-27T14:59:59.999Z'));
  });

  it('buckets daily rows by the local calendar day in a zone with a half-hour offset (Asia/Kolkata, UTC+5:30)', async () => {
    const sim = freshSimulator();
    const res = await runQuery(sim, { parameters: ['events_by_date'], startDate: '2025-05-26', endDate: '2025-05-28' }, { ...STORE, timezone: 'Asia/Kolkata' });
    const row = rowsOf(res, 'events_by_date').find((r) => r.date === '2025-05-27');
    expect(row?.pageviews).toBe(await pageviewsBetween(sim, '2025-05-26T18:30:00.000Z', '2025-05-27T18:29:59.999Z'));
  });

  it('labels hourly rows by the local hour in a zone with a half-hour offset (06:00 in Kolkata is 00:30–01:29 UTC)', async () => {
    const sim = freshSimulator();
    const res = await runQuery(
      sim,
      { parameters: ['events_by_date'], startDate: '2025-05-27', endDate: '2025-05-27', granularity: 'hourly' },
      { ...STORE, timezone: 'Asia/Kolkata' },
    );
    const row = rowsOf(res, 'events_by_date').find((r) => r.date === '2025-05-27 06:00:00');
    expect(row?.pageviews).toBe(await pageviewsBetween(sim, '2025-05-27T00:30:00.000Z', '2025-05-27T01:29:59.999Z'));
  });

  it('treats timezone=UTC like no timezone at all', async () => {
    const sim = freshSimulator();
    const body = { parameters: ['events_by_date'], preset: 'last_7d' };
    expect(withoutRequestId(await runQuery(sim, body, { ...WWW, timezone: 'UTC' }))).toBe(withoutRequestId(await runQuery(sim, body, WWW)));
  });
});

describe('today_metrics and active_stats follow the virtual clock', () => {
  it('does not decrease today’s pageviews when the clock advances an hour within the day, and counts the new hour', async () => {
    const sim = freshSimulator();
    const before = rowsOf(await runQuery(sim, { parameters: ['today_metrics'], preset: 'today' }, STORE), 'today_metrics')[0];
    await advanceClock(sim, 3_600_000);
    const after = rowsOf(await runQuery(sim, { parameters: ['today_metrics'], preset: 'today' }, STORE), 'today_metrics')[0];
    expect(after?.pageviews as number).toBeGreaterThan(before?.pageviews as number);
    expect(after?.sessions as number).toBeGreaterThanOrEqual(before?.sessions as number);
  });

  it('counts today from local midnight up to the clock instant, like summary_metrics over that span', async () => {
    const sim = freshSimulator();
    const today = rowsOf(await runQuery(sim, { parameters: ['today_metrics'], preset: 'today' }, STORE), 'today_metrics')[0];
    const span = rowsOf(
      await runQuery(sim, { parameters: ['summary_metrics'], startDate: '2025-06-02T00:00:00Z', endDate: '2025-06-02T12:00:00Z' }, STORE),
      'summary_metrics',
    );
    expect(today?.pageviews).toBe(sumOf(span, 'pageviews'));
    expect(today?.sessions).toBe(sumOf(span, 'sessions'));
  });

  it('starts today at local midnight of the request time zone, within the request range', async () => {
    const sim = freshSimulator();
    await setClock(sim, '2025-06-02T23:30:00Z');
    const tokyo = { ...STORE, timezone: 'Asia/Tokyo' };
    const range = { startDate: '2025-06-02', endDate: '2025-06-03' };
    const today = rowsOf(await runQuery(sim, { parameters: ['today_metrics'], ...range }, tokyo), 'today_metrics')[0];
    const span = rowsOf(
      await runQuery(sim, { parameters: ['summary_metrics'], startDate: '2025-06-02T15:00:00Z', endDate: '2025-06-02T23:30:00Z' }, STORE),
      'summary_metrics',
    );
    expect(today?.pageviews).toBe(sumOf(span, 'pageviews'));
    expect(today?.sessions).toBe(sumOf(span, 'sessions'));
  });

  it('starts over after midnight', async () => {
    const sim = freshSimulator();
    await setClock(sim, '2025-06-02T23:30:00Z');
    const late = rowsOf(await runQuery(sim, { parameters: ['today_metrics'], preset: 'today' }, STORE), 'today_metrics')[0];
    await advanceClock(sim, 3_600_000);
    const early = rowsOf(await runQuery(sim, { parameters: ['today_metrics'], preset: 'today' }, STORE), 'today_metrics')[0];
    expect(early?.pageviews as number).toBeLessThan(late?.pageviews as number);
  });

  it('applies the request date range to today_metrics as live does (a past range has no today), but not to active_stats', async () => {
    const sim = freshSimulator();
    const preset = await runQuery(sim, { parameters: ['today_metrics', 'active_stats'], preset: 'today' }, STORE);
    const old = await runQuery(sim, { parameters: ['today_metrics', 'active_stats'], startDate: '2024-01-01', endDate: '2024-01-02' }, STORE);
    expect(rowsOf(old, 'today_metrics')).toEqual([{ pageviews: 0, visitors: 0, sessions: 0 }]);
    expect(rowsOf(preset, 'today_metrics')[0]?.pageviews as number).toBeGreaterThan(0);
    expect(rowsOf(old, 'active_stats')).toEqual(rowsOf(preset, 'active_stats'));
  });

  it('changes active_stats as the clock moves', async () => {
    const sim = freshSimulator();
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const [row] = rowsOf(await runQuery(sim, { parameters: ['active_stats'], preset: 'today' }, STORE), 'active_stats');
      expect(row?.active_users as number).toBeGreaterThanOrEqual(0);
      expect(row?.active_users as number).toBeLessThanOrEqual(row?.active_sessions as number);
      seen.push(JSON.stringify(row));
      await advanceClock(sim, 7 * 60_000);
    }
    expect(new Set(seen).size).toBeGreaterThan(1);
  });

  it('keeps answering the same active_stats while the clock stands still', async () => {
    const sim = freshSimulator();
    const first = await runQuery(sim, { parameters: ['active_stats', 'today_metrics'], preset: 'today' }, STORE);
    const second = await runQuery(sim, { parameters: ['active_stats', 'today_metrics'], preset: 'today' }, STORE);
    expect(second.json.data).toEqual(first.json.data);
  });
});

describe('the same preset body sent again', () => {
  it("names the new day's dates after midnight, and each time zone's own today", async () => {
    const sim = freshSimulator();
    expect(await presetRange(sim, 'last_7d')).toEqual(['2025-05-27', '2025-06-02', 7]);
    await advanceClock(sim, 24 * 3_600_000);
    expect(await presetRange(sim, 'last_7d')).toEqual(['2025-05-28', '2025-06-03', 7]);
    const [, lastInKiritimati] = await presetRange(sim, 'last_7d', { ...WWW, timezone: 'Pacific/Kiritimati' });
    expect(lastInKiritimati).toBe('2025-06-04');
    expect(await presetRange(sim, 'last_7d')).toEqual(['2025-05-28', '2025-06-03', 7]);
  });
});
