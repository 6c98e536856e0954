import type { AdmissionRule } from '../admission/rules.js';
import type { StepRef } from '../faults/fault-plan.js';
import type { RefusalReason } from '../messages.js';

/** One sliding-window check made for a request: enough for an oracle to replay it. */
export interface WindowCheck {
  readonly rule: AdmissionRule;
  /** The window's identity in the store, e.g. `api-key:key_x` or `query:execute:anon:1.2.3.4`. */
  readonly id: string;
  readonly limit: number;
  readonly windowMs: number;
  readonly allowed: boolean;
  /** Position of this check among all window checks of the simulator: the order the store saw them. */
  readonly order: number;
  /**
   * The instant the store judged the check at, when it differs from the entry's `at` (a shared
   * store judges a window's checks in order of arrival, and two processes' clocks may differ
   * by a millisecond).
   */
  readonly at?: number;
}

/** `admitted`, the rule that refused the request, or `scenario` for an injected fault. */
export type Outcome = 'admitted' | AdmissionRule | 'scenario';

/** Why a request was refused, as its answer said it (see {@link RefusalReason}). */
export type JournalReason = RefusalReason;

/**
 * One admission decision and its response. Identities name keys by id and users by id,
 * never by secret or token.
 */
export interface JournalEntry {
  /**
   * Position of the request's arrival since the simulator started or was reset (reserved when
   * it arrives, so entries list in arrival order even when they finish out of order).
   */
  readonly seq: number;
  /** Simulator clock time of the decision, epoch ms. */
  readonly at: number;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  /** The matched route pattern, or null when no route matched. */
  readonly route: string | null;
  /** `apikey:<id>`, `user:<id>` or `anon:<ip>`. */
  readonly identity: string;
  readonly keyId: string | null;
  readonly outcome: Outcome;
  readonly status: number;
  /** Window checks made, in order. */
  readonly checks: readonly WindowCheck[];
  /** Requests of the same key in flight before this one (when the gate applied). */
  readonly inFlight: number | null;
  /** The in-flight cap at the time (when the gate applied). */
  readonly inFlightCap: number | null;
  /** Scenario steps that touched the request (the first refusing one decided it). */
  readonly faults: readonly StepRef[];
  /** Hash of method, path, query and body: the same request sent again has the same one. */
  readonly fingerprint: string;
  /** The Retry-After the response carried, in seconds, or null. */
  readonly retryAfter: number | null;
  /** What the simulator ignored or reinterpreted in the request (the `Warning` headers it sent). */
  readonly warnings: readonly string[];
  /** Why the request was refused (any 4xx or 5xx answer, a dropped connection), or null. */
  readonly reason: JournalReason | null;
}
