/**
 * A journal entry as the Redis store keeps it (the `journal` stream's field `e`): a JSON array
 * of the entry's values in a fixed order, without the field names, the parts that repeat inside
 * an entry written once, and decoded back into an entry equal to the one written, with its
 * fields in the same order (so `GET /__sim/journal` answers the same bytes as from the entry
 * itself). A quota key's refused query is about 210 characters instead of about 575 as the
 * entry's own JSON: less for this process to write and read back, and for Redis to parse and
 * keep.
 *
 * The array: seq, at, requestId, method, path (0: the same as the route), route, identity,
 * keyId (0: the one the identity names, `apikey:<id>` → `<id>`, else null), outcome, status,
 * checks, inFlight, inFlightCap, faults, fingerprint, retryAfter, warnings, reason (null or
 * [code, message, field, cause, fix]). A check is [rule, id, limit, windowMs, flags, order] and
 * the instant it was judged at when it has one; flags: 1 allowed, 2 the id is the one given
 * followed by the entry's keyId (`api-key:` for `api-key:key_x`).
 */
import type { JournalEntry, JournalReason, Outcome, WindowCheck } from '../sim/journal/journal-entry.js';
import type { AdmissionRule } from '../sim/admission/rules.js';
import type { StepRef } from '../sim/faults/fault-plan.js';

/** The keyId an identity names: `apikey:<id>` → `<id>`, any other → null. */
const keyIdOf = (identity: string): string | null => (identity.startsWith('apikey:') ? identity.slice('apikey:'.length) : null);

type EncodedCheck = [AdmissionRule, string, number, number, number, number] | [AdmissionRule, string, number, number, number, number, number];
type EncodedReason = [string, string, string | null, string | null, string | null];
type EncodedEntry = [
  seq: number,
  at: number,
  requestId: string,
  method: string,
  path: string | 0,
  route: string | null,
  identity: string,
  keyId: string | null | 0,
  outcome: Outcome,
  status: number,
  checks: EncodedCheck[],
  inFlight: number | null,
  inFlightCap: number | null,
  faults: readonly StepRef[],
  fingerprint: string,
  retryAfter: number | null,
  warnings: readonly string[],
  reason: EncodedReason | null,
];

function encodeCheck(check: WindowCheck, keyId: string | null): EncodedCheck {
  let id = check.id;
  let flags = check.allowed ? 1 : 0;
  if (keyId !== null && keyId !== '' && id.length > keyId.length && id.endsWith(keyId)) {
    id = id.slice(0, id.length - keyId.length);
    flags |= 2;
  }
  return check.at === undefined
    ? [check.rule, id, check.limit, check.windowMs, flags, check.order]
    : [check.rule, id, check.limit, check.windowMs, flags, check.order, check.at];
}

/** The entry as the journal stream keeps it (see the module's comment). */
export function encodeJournalEntry(entry: JournalEntry): string {
  const { keyId, route, reason } = entry;
  const checks: EncodedCheck[] = [];
  for (const check of entry.checks) checks.push(encodeCheck(check, keyId));
  const encoded: EncodedEntry = [
    entry.seq,
    entry.at,
    entry.requestId,
    entry.method,
    route !== null && entry.path === route ? 0 : entry.path,
    route,
    entry.identity,
    keyId === keyIdOf(entry.identity) ? 0 : keyId,
    entry.outcome,
    entry.status,
    checks,
    entry.inFlight,
    entry.inFlightCap,
    entry.faults,
    entry.fingerprint,
    entry.retryAfter,
    entry.warnings,
    reason === null ? null : [reason.code, reason.message, reason.field, reason.cause, reason.fix],
  ];
  return JSON.stringify(encoded);
}

function decodeCheck(c: EncodedCheck, keyId: string | null): WindowCheck {
  const flags = c[4];
  const check = {
    rule: c[0],
    id: (flags & 2) !== 0 ? c[1] + (keyId ?? '') : c[1],
    limit: c[2],
    windowMs: c[3],
    allowed: (flags & 1) !== 0,
    order: c[5],
  };
  return c.length > 6 ? { ...check, at: c[6] as number } : check;
}

/**
 * Makes reasons, one object for a run of equal ones: a run of refusals (a 429 storm) says the
 * same thing, made once per page (the memory journal keeps one copy too).
 */
function createReasons(): (r: EncodedReason) => JournalReason {
  let last: JournalReason | null = null;
  return (r) => {
    if (last !== null && last.code === r[0] && last.message === r[1] && last.field === r[2] && last.cause === r[3] && last.fix === r[4]) return last;
    return (last = { code: r[0], message: r[1], field: r[2], cause: r[3], fix: r[4] });
  };
}

/** The entry of one decoded array (an element of {@link decodeJournalPage}'s array, or {@link decodeJournalEntry}'s parse). */
function entryOf(e: EncodedEntry, reasonOf: (r: EncodedReason) => JournalReason): JournalEntry {
  const identity = e[6];
  const keyId = e[7] === 0 ? keyIdOf(identity) : e[7];
  const r = e[17];
  const checks: WindowCheck[] = [];
  for (const c of e[10]) checks.push(decodeCheck(c, keyId));
  return {
    seq: e[0],
    at: e[1],
    requestId: e[2],
    method: e[3],
    path: e[4] === 0 ? (e[5] as string) : e[4],
    route: e[5],
    identity,
    keyId,
    outcome: e[8],
    status: e[9],
    checks,
    inFlight: e[11],
    inFlightCap: e[12],
    faults: e[13],
    fingerprint: e[14],
    retryAfter: e[15],
    warnings: e[16],
    reason: r === null ? null : reasonOf(r),
  };
}

/** The entry {@link encodeJournalEntry} wrote. */
export function decodeJournalEntry(encoded: string): JournalEntry {
  return entryOf(JSON.parse(encoded) as EncodedEntry, createReasons());
}

/** The instant of an encoded entry, without decoding the rest. */
export function journalEntryAt(encoded: string): number {
  return (JSON.parse(encoded) as EncodedEntry)[1];
}

/** The entries of a JSON array of encoded entries (`[e1,e2,…]`, as the journal page script joins them), in order. */
export function decodeJournalPage(joined: string): JournalEntry[] {
  const page = JSON.parse(joined) as EncodedEntry[];
  const out: JournalEntry[] = [];
  const reasonOf = createReasons();
  for (const e of page) out.push(entryOf(e, reasonOf));
  return out;
}
