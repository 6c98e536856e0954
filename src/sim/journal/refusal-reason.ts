import type { Drop, SimError } from '../errors.js';
import type { JournalReason } from './journal-entry.js';

/** Characters of a message, cause or fix kept in a journal entry: a reason explains, it does not copy a body. */
const MAX_REASON_CHARS = 300;

const clip = (text: string | undefined): string | null => (text === undefined ? null : text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS - 1)}…` : text);

/** The reason of a connection a scenario dropped: no answer was sent. */
const DROPPED: JournalReason = Object.freeze({ code: 'CONNECTION_RESET', message: 'A running scenario dropped the connection without an answer', field: null, cause: null, fix: 'Stop the scenario (DELETE /__sim/scenarios/<name>) or retry' });

/**
 * Why a refusal refused, as the answer the client got says it: its code and message; the first
 * field at fault and what was wrong with it (the first detail, or the ingestion envelope's first
 * error, or its `why`, or what only the journal is told); and the fix (the hint, else the
 * envelope's `fix`, else what only the journal is told).
 */
export function reasonOf(refusal: SimError | Drop): JournalReason {
  if ('drop' in refusal) return DROPPED;
  const detail = refusal.details?.[0];
  const issue = refusal.basket?.errors?.[0];
  return {
    code: refusal.code,
    message: clip(refusal.message) as string,
    field: clip(detail?.field ?? issue?.field),
    cause: clip(detail?.message ?? issue?.message ?? refusal.basket?.why ?? refusal.journalOnly?.cause),
    fix: clip(refusal.hint ?? refusal.basket?.fix ?? refusal.journalOnly?.fix),
  };
}

/**
 * A reason on one line, for request logs: `CODE field: cause (fix)`, or `CODE message` when the
 * answer names no field. Bounded: each part is already clipped.
 */
export function describeReason(reason: JournalReason): string {
  const what = reason.field !== null ? `${reason.field}: ${reason.cause ?? reason.message}` : reason.cause !== null ? `${reason.message}: ${reason.cause}` : reason.message;
  return `${reason.code} ${what}${reason.fix !== null ? ` (${reason.fix})` : ''}`;
}
