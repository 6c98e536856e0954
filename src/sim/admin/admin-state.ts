import type { AuditRecord } from '../../contract/keys.js';
import { createRandom, type Random } from '../random.js';

/** Audit records kept; the oldest are dropped first (and counted). */
export const AUDIT_CAPACITY = 10_000;

/**
 * What key administration and dashboard sessions add to a simulator run. It lives in the
 * state, so a reset (which rebuilds the state from the world) clears the audit log, restarts
 * the counters and forgets every session issued at run time.
 */
export interface AdminState {
  /** Seeded stream of the run; secrets, key ids and session tokens fork from it by counter. */
  readonly random: Random;
  /** Audit records, oldest first. */
  readonly audit: AuditRecord[];
  /** Counters: audit records written, secrets issued, key ids drawn, sessions issued, records dropped. */
  readonly counters: { audit: number; secrets: number; keyIds: number; sessions: number; dropped: number };
  /** Expiry (epoch ms) of sessions issued at run time, by token hash. Fixture sessions never expire. */
  readonly sessionExpiresAt: Map<string, number>;
  /** Ids of keys created at run time (the others come from the world). */
  readonly createdKeyIds: Set<string>;
}

/** A fresh administration state for a seed. */
export function createAdminState(seed: string): AdminState {
  return {
    random: createRandom(seed).fork('admin'),
    audit: [],
    counters: { audit: 0, secrets: 0, keyIds: 0, sessions: 0, dropped: 0 },
    sessionExpiresAt: new Map(),
    createdKeyIds: new Set(),
  };
}
