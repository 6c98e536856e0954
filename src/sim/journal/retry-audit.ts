import type { JournalEntry } from './journal.js';

/** How a retry broke SPEC 8.4 rule 4. */
export type RetryViolationKind = 'too_early' | 'excess_jitter' | 'too_many_retries' | 'non_retryable';

/** One retry that broke the rule, with a sentence saying how. */
export interface RetryViolation {
  readonly kind: RetryViolationKind;
  /** The retry that broke the rule. */
  readonly requestId: string;
  /** The answer it was retrying. */
  readonly previousRequestId: string;
  readonly reason: string;
}

/** One run of the same request by the same identity: a failure and the retries that followed. */
export interface RetryChain {
  readonly identity: string;
  readonly method: string;
  readonly path: string;
  readonly fingerprint: string;
  readonly requestIds: readonly string[];
  readonly statuses: readonly number[];
  readonly retries: number;
  /** Whether the last attempt succeeded. */
  readonly recovered: boolean;
  readonly compliant: boolean;
  readonly violations: readonly RetryViolation[];
}

/** The verdict over a whole journal. */
export interface RetryAudit {
  readonly compliant: boolean;
  readonly summary: { readonly chains: number; readonly retries: number; readonly violations: number; readonly compliantChains: number };
  readonly violations: readonly RetryViolation[];
  readonly chains: readonly RetryChain[];
}

/** The judgement's parameters; the defaults are SPEC 8.4's recommendation. */
export interface RetryPolicy {
  /** Retries allowed after a failure (default 3). */
  readonly maxRetries: number;
  /** The least wait before any retry, ms (default 1000). */
  readonly minWaitMs: number;
  /** How far past the least wait a retry may come, ms (default 250, exclusive). */
  readonly jitterMs: number;
  /** A repeat of the same request later than this is a new request, not a retry (default 5 min). */
  readonly retryWindowMs: number;
}

/** SPEC 8.4 rule 4: at least 1 s, jitter under 250 ms, at most 3 retries. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, minWaitMs: 1000, jitterMs: 250, retryWindowMs: 300_000 };

/** Answers worth retrying: 429, 408, 425, every 5xx, and dropped connections (status 0). */
export function isRetryable(status: number): boolean {
  return status === 0 || status === 408 || status === 425 || status === 429 || status >= 500;
}

const isSuccess = (status: number): boolean => status >= 200 && status < 400;

function describe(entry: JournalEntry): string {
  return entry.status === 0 ? 'dropped connection' : String(entry.status);
}

function judge(previous: JournalEntry, retry: JournalEntry, ordinal: number, policy: RetryPolicy): RetryViolation[] {
  const violations: RetryViolation[] = [];
  const ids = { requestId: retry.requestId, previousRequestId: previous.requestId };
  if (!isRetryable(previous.status)) {
    violations.push({ kind: 'non_retryable', ...ids, reason: `retried a ${previous.status} answer (${previous.requestId}), which will not change by retrying` });
    return violations;
  }
  const wait = retry.at - previous.at;
  const told = previous.retryAfter !== null ? previous.retryAfter * 1000 : 0;
  const least = Math.max(policy.minWaitMs, told);
  const said = previous.retryAfter !== null ? `Retry-After: ${previous.retryAfter} s` : `no Retry-After (${policy.minWaitMs} ms minimum)`;
  if (wait < least) {
    violations.push({ kind: 'too_early', ...ids, reason: `retried ${wait} ms after the ${describe(previous)} (${previous.requestId}), which said ${said}: wait at least ${least} ms` });
  } else if (wait >= least + policy.jitterMs) {
    violations.push({ kind: 'excess_jitter', ...ids, reason: `waited ${wait} ms, ${wait - least} ms over the ${least} ms minimum: keep the jitter under ${policy.jitterMs} ms` });
  }
  if (ordinal > policy.maxRetries) {
    violations.push({ kind: 'too_many_retries', ...ids, reason: `retry number ${ordinal} of the same request; at most ${policy.maxRetries}` });
  }
  return violations;
}

/**
 * Judges how clients retried, from the journal alone. Requests are grouped by identity and
 * fingerprint (method, path, query, body); after a failed answer, the next identical request
 * within `retryWindowMs` is its retry. Each retry must wait at least max(1 s, Retry-After), come
 * less than 250 ms after that, be at most the third, and follow a retryable answer. Pure.
 */
export function auditRetries(entries: readonly JournalEntry[], policy: Partial<RetryPolicy> = {}): RetryAudit {
  const p: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...policy };
  const groups = new Map<string, JournalEntry[]>();
  for (const entry of entries) {
    const key = `${entry.identity}\n${entry.fingerprint}`;
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  }
  const chains: (RetryChain & { readonly seq: number })[] = [];
  for (const group of groups.values()) {
    let chain: JournalEntry[] = [];
    const close = (): void => {
      if (chain.length === 0) return;
      const first = chain[0] as JournalEntry;
      const violations = chain.slice(1).flatMap((entry, i) => judge(chain[i] as JournalEntry, entry, i + 1, p));
      chains.push({
        seq: first.seq,
        identity: first.identity,
        method: first.method,
        path: first.path,
        fingerprint: first.fingerprint,
        requestIds: chain.map((e) => e.requestId),
        statuses: chain.map((e) => e.status),
        retries: chain.length - 1,
        recovered: isSuccess((chain[chain.length - 1] as JournalEntry).status),
        compliant: violations.length === 0,
        violations,
      });
      chain = [];
    };
    for (const entry of group) {
      const last = chain[chain.length - 1];
      if (last && (isSuccess(last.status) || entry.at - last.at > p.retryWindowMs)) close();
      if (chain.length > 0 || !isSuccess(entry.status)) chain.push(entry);
    }
    close();
  }
  chains.sort((a, b) => a.seq - b.seq);
  const violations = chains.flatMap((c) => c.violations);
  return {
    compliant: violations.length === 0,
    summary: {
      chains: chains.length,
      retries: chains.reduce((sum, c) => sum + c.retries, 0),
      violations: violations.length,
      compliantChains: chains.filter((c) => c.compliant).length,
    },
    violations,
    chains: chains.map(({ seq: _seq, ...chain }) => chain),
  };
}
