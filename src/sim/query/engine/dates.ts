import type { DatePreset } from '../../../contract/query-request.js';
import { DAY_MS } from '../../model/world.js';

/** A calendar date as `YYYY-MM-DD`. */
export type DateString = string;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;
const ZONED_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** A parsed date input: the instant it names, and whether it named a whole day. */
export interface ParsedDate {
  /** Epoch ms of the instant (UTC wall clock for local forms, as the service reads them). */
  readonly ms: number;
  /** True for `YYYY-MM-DD`: as an end bound it means the end of that day. */
  readonly dateOnly: boolean;
}

function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number | null {
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(ms);
  if (
    check.getUTCFullYear() !== y ||
    check.getUTCMonth() !== mo - 1 ||
    check.getUTCDate() !== d ||
    h > 23 ||
    mi > 59 ||
    s > 59
  ) {
    return null;
  }
  return ms;
}

/**
 * Parses a date input the way the service accepts them: `YYYY-MM-DD`, a local
 * `YYYY-MM-DD[T ]HH:MM[:SS]` (read as UTC wall clock), or an ISO datetime with `Z` or an offset.
 * Returns null for anything else, including impossible calendar dates such as 2024-13-45.
 */
export function parseDateInput(input: string): ParsedDate | null {
  if (input.length > MEMO_INPUT_LENGTH) return readDateInput(input);
  const known = parsedInputs.get(input);
  if (known !== undefined) return known;
  const parsed = readDateInput(input);
  if (parsedInputs.size >= DATE_MEMO_ENTRIES) parsedInputs.clear();
  parsedInputs.set(input, parsed);
  return parsed;
}

/** Entries each date memo keeps before it starts over: a bound on memory, whatever the inputs. */
const DATE_MEMO_ENTRIES = 4096;

/** Longer date inputs are parsed every time (every form the service accepts is shorter). */
const MEMO_INPUT_LENGTH = 40;

/** Inputs already parsed: the same few dates come with every request of a dashboard. */
const parsedInputs = new Map<string, ParsedDate | null>();

function readDateInput(input: string): ParsedDate | null {
  const text = input.trim();
  let m = DATE_ONLY.exec(text);
  if (m) {
    const ms = utc(Number(m[1]), Number(m[2]), Number(m[3]));
    return ms === null ? null : { ms, dateOnly: true };
  }
  m = LOCAL_DATETIME.exec(text);
  if (m) {
    const ms = utc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
    return ms === null ? null : { ms, dateOnly: false };
  }
  if (ZONED_DATETIME.test(text)) {
    if (utc(Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10)), Number(text.slice(11, 13)), Number(text.slice(14, 16))) === null) {
      return null;
    }
    const ms = Date.parse(text);
    return Number.isFinite(ms) ? { ms, dateOnly: false } : null;
  }
  return null;
}


/** `YYYY-MM-DD` of an epoch-ms instant in UTC. */
export function formatDate(ms: number): DateString {
  const day = Math.floor(ms / DAY_MS);
  let text = formattedDays.get(day);
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (formattedDays.size >= DATE_MEMO_ENTRIES) formattedDays.clear();
    formattedDays.set(day, text);
  }
  return text;
}

/** `YYYY-MM-DD` by UTC day number, as formatted before. */
const formattedDays = new Map<number, DateString>();

/** `YYYY-MM-DD HH:MM:SS` of an epoch-ms instant in UTC (ClickHouse's JSON DateTime form). */
export function formatDateTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** Days since the epoch of an instant (UTC). */
export function dayIndex(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();
const canonicalNames = new Map<string, string | null>();
const CANONICAL_MEMO_LIMIT = 2048;

/**
 * The canonical IANA name of a time zone as this runtime spells it (`asia/tokyo` →
 * `Asia/Tokyo`), or null when it is not one. Caches are keyed by canonical names only, so
 * spelling variants cannot grow them.
 */
export function canonicalTimeZone(tz: string): string | null {
  const known = canonicalNames.get(tz);
  if (known !== undefined) return known;
  let canonical: string | null = null;
  if (tz.length > 0 && tz.length <= 64 && /^[A-Za-z0-9_+\-/]+$/.test(tz)) {
    try {
      canonical = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
    } catch {
      canonical = null;
    }
  }
  if (canonicalNames.size < CANONICAL_MEMO_LIMIT) canonicalNames.set(tz, canonical);
  return canonical;
}

/** True when `tz` is an IANA time zone this runtime knows. */
export function isValidTimeZone(tz: string): boolean {
  return canonicalTimeZone(tz) !== null;
}

function formatterFor(tz: string): Intl.DateTimeFormat {
  let f = zoneFormatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    zoneFormatters.set(tz, f);
  }
  return f;
}

const offsetCache = new Map<string, Map<number, number>>();
const HOUR_MS = 3_600_000;

/**
 * Offset of `tz` from UTC in ms at the UTC hour containing `ms` (local = utc + offset).
 * Cached per (zone, hour): zone offsets change only on whole quarter hours at most.
 */
export function zoneOffset(tz: string, ms: number): number {
  if (tz === 'UTC') return 0;
  let perZone = offsetCache.get(tz);
  if (!perZone) {
    perZone = new Map();
    offsetCache.set(tz, perZone);
  }
  const hour = Math.floor(ms / HOUR_MS);
  let offset = perZone.get(hour);
  if (offset === undefined) {
    const parts = formatterFor(tz).formatToParts(hour * HOUR_MS);
    const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
    const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    offset = local - hour * HOUR_MS;
    if (perZone.size > 100_000) perZone.clear();
    perZone.set(hour, offset);
  }
  return offset;
}

/** The calendar date in `tz` at instant `ms`. */
export function localDate(ms: number, tz: string): DateString {
  return formatDate(ms + zoneOffset(tz, ms));
}

/** Start of the local day in `tz` containing `ms`, as epoch ms. */
export function localDayStart(ms: number, tz: string): number {
  const local = ms + zoneOffset(tz, ms);
  const localMidnight = Math.floor(local / DAY_MS) * DAY_MS;
  return localMidnight - zoneOffset(tz, localMidnight - zoneOffset(tz, ms));
}

function addDays(date: DateString, days: number): DateString {
  return formatDate(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);
}

/**
 * Resolves a preset to a [start, end] pair of calendar dates, with "today" taken in `tz`.
 * Weeks start on Sunday, as the service computes them.
 */
export function resolvePreset(preset: DatePreset, now: number, tz: string): [DateString, DateString] {
  const today = localDate(now, tz);
  const memoKey = `${preset}|${today}`;
  const known = presetMemo.get(memoKey);
  if (known) return known;
  const range = presetRange(preset, today);
  if (presetMemo.size > 1024) presetMemo.clear();
  presetMemo.set(memoKey, range);
  return range;
}

const presetMemo = new Map<string, [DateString, DateString]>();

function presetRange(preset: DatePreset, today: DateString): [DateString, DateString] {
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  const weekday = new Date(todayMs).getUTCDay();
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  switch (preset) {
    case 'today':
      return [today, today];
    case 'yesterday':
      return [addDays(today, -1), addDays(today, -1)];
    case 'last_7d':
      return [addDays(today, -6), today];
    case 'last_14d':
      return [addDays(today, -13), today];
    case 'last_30d':
      return [addDays(today, -29), today];
    case 'last_90d':
      return [addDays(today, -89), today];
    case 'this_week':
      return [addDays(today, -weekday), today];
    case 'last_week':
      return [addDays(today, -weekday - 7), addDays(today, -weekday - 1)];
    case 'this_month':
      return [`${today.slice(0, 7)}-01`, today];
    case 'last_month': {
      const first = formatDate(Date.UTC(y, m - 2, 1));
      const last = formatDate(Date.UTC(y, m - 1, 0));
      return [first, last];
    }
    case 'this_year':
      return [`${y}-01-01`, today];
  }
}

/** Time bucketing of a series: hourly or daily, in a time zone. */
export type TimeUnit = 'hour' | 'day';

/** Zone offsets are whole quarter hours, so a quarter hour never straddles a local hour. */
const QUARTER_MS = 900_000;

/**
 * Returns a function from an instant to its bucket label in `tz`: `YYYY-MM-DD` for days,
 * `YYYY-MM-DD HH:00:00` for hours, by local time (also in zones offset by 30 or 45 minutes).
 * Labels are memoized per quarter hour.
 */
export function createBucketer(unit: TimeUnit, tz: string): (ms: number) => string {
  const labels = new Map<number, string>();
  const span = unit === 'day' ? DAY_MS : HOUR_MS;
  let lastQuarter = Number.NaN;
  let lastLabel = '';
  // The instants [validFrom, validTo) share lastLabel: the local day (or hour) of the last
  // label, when the zone's offset stays the same over all of it. One label per bucket, not per quarter.
  let validFrom = Number.NaN;
  let validTo = Number.NaN;
  return (ms) => {
    if (ms >= validFrom && ms < validTo) return lastLabel;
    const quarter = Math.floor(ms / QUARTER_MS);
    if (quarter === lastQuarter) return lastLabel;
    const start = quarter * QUARTER_MS;
    const offset = zoneOffset(tz, start);
    let label = labels.get(quarter);
    if (label === undefined) {
      const local = start + offset;
      label = unit === 'day' ? formatDate(local) : `${formatDate(local)} ${String(new Date(local).getUTCHours()).padStart(2, '0')}:00:00`;
      labels.set(quarter, label);
    }
    lastQuarter = quarter;
    lastLabel = label;
    const from = Math.floor((start + offset) / span) * span - offset;
    const to = from + span;
    let steady = true;
    for (let hour = Math.floor(from / HOUR_MS) * HOUR_MS; hour < to && steady; hour += HOUR_MS) steady = zoneOffset(tz, hour) === offset;
    validFrom = steady ? from : start;
    validTo = steady ? to : start + QUARTER_MS;
    return label;
  };
}

/** Every bucket label from `fromMs` to `toMs` inclusive, in order, for gap-free series. */
export function bucketLabels(unit: TimeUnit, tz: string, fromMs: number, toMs: number): string[] {
  const bucket = createBucketer(unit, tz);
  const out: string[] = [];
  let last = '';
  for (let t = Math.floor(fromMs / QUARTER_MS) * QUARTER_MS; t <= toMs; t += QUARTER_MS) {
    const label = bucket(t);
    if (label !== last) {
      out.push(label);
      last = label;
    }
  }
  return out;
}
