import type { JournalEntry } from '../../src/sim/journal/journal.js';

/** An admitted `GET /v1/query/types` of `key_1`, numbered `seq`, at the instant `at`: a journal entry as the simulator writes it. */
export function admittedEntry(seq: number, at: number): JournalEntry {
  return {
    seq,
    at,
    requestId: `req_${seq}`,
    method: 'GET',
    path: '/v1/query/types',
    route: '/v1/query/types',
    identity: 'apikey:key_1',
    keyId: 'key_1',
    outcome: 'admitted',
    status: 200,
    checks: [],
    inFlight: 0,
    inFlightCap: 20,
    faults: [],
    fingerprint: `fp${seq}`,
    retryAfter: null,
    warnings: [],
    reason: null,
  };
}
