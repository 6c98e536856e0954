import { identityOf } from '../auth/principal.js';
import type { SimResponse } from '../messages.js';
import type { Exchange, Refusal } from '../pipeline/exchange.js';
import { describeFinding } from '../text.js';
import type { Drop, SimError } from '../errors.js';
import { fingerprintOf } from './fingerprint.js';
import { reasonOf } from './refusal-reason.js';
import type { JournalEntry } from './journal.js';

/** The warnings of the many entries that have none (shared, never mutated). */
const NO_WARNINGS: readonly string[] = Object.freeze([]);

/**
 * The journal entry of one request of the simulated service: who, which route, the decision,
 * every window check, the in-flight count, the scenario steps that touched it, the answer's
 * status and Retry-After, and for a refusal (`refusal`: the error the client got) its reason.
 * Names keys and users by id, never by secret.
 */
export function journalEntryOf(x: Exchange, seq: number, refusedBy: Refusal | null, response: SimResponse, refusal: SimError | Drop | null): JournalEntry {
  const { principal } = x;
  const retryAfter = response.headers['Retry-After'];
  return {
    seq,
    at: x.now,
    requestId: x.requestId,
    method: x.request.method,
    path: x.request.path.slice(0, 200),
    route: x.match.kind === 'found' ? x.match.route.path : null,
    identity: principal ? identityOf(principal) : 'unknown',
    keyId: principal?.kind === 'apikey' ? principal.key.id : null,
    outcome: refusedBy ?? 'admitted',
    status: response.status,
    checks: x.checks,
    inFlight: x.inFlight,
    inFlightCap: x.inFlightCap,
    faults: x.faults.touched,
    fingerprint: fingerprintOf(x.request),
    retryAfter: retryAfter === undefined ? null : Number(retryAfter),
    warnings: x.warnings.length === 0 ? NO_WARNINGS : x.warnings.map(describeFinding),
    reason: refusal === null ? null : reasonOf(refusal),
  };
}
