import type { JournalEntry } from '../sim/journal/journal.js';
import { auditRetries, type RetryAudit, type RetryPolicy } from '../sim/journal/retry-audit.js';
import type { Simulator } from '../sim/simulator.js';

/** Raised by {@link expectRetriesCompliant}; `audit` holds the full verdict. */
export class RetryComplianceError extends Error {
  constructor(
    message: string,
    readonly audit: RetryAudit,
  ) {
    super(message);
    this.name = 'RetryComplianceError';
  }
}

/**
 * Asserts that every client retry in a simulator's journal (or in the given entries) follows
 * SPEC 8.4 rule 4. Works in any test runner: it throws a readable error listing each
 * violation by request id, and returns the audit when all is well.
 *
 * ```ts
 * expectRetriesCompliant(sim); // after the client under test has run
 * ```
 */
export function expectRetriesCompliant(source: Simulator | readonly JournalEntry[], policy: Partial<RetryPolicy> = {}): RetryAudit {
  const entries = Array.isArray(source) ? (source as readonly JournalEntry[]) : (source as Simulator).journal.list();
  const audit = auditRetries(entries, policy);
  if (audit.compliant) return audit;
  const lines = [
    `Expected retries as the service asks of clients (wait max(1 s, Retry-After) plus under 250 ms, at most 3 retries, none after a non-retryable answer); found ${audit.summary.violations} violation(s) in ${audit.summary.chains - audit.summary.compliantChains} of ${audit.summary.chains} retry chain(s):`,
  ];
  for (const chain of audit.chains) {
    if (chain.compliant) continue;
    lines.push(`  ${chain.identity} ${chain.method} ${chain.path}: answers ${chain.statuses.join(' → ')}`);
    for (const v of chain.violations) lines.push(`    - ${v.requestId} [${v.kind}] ${v.reason}`);
  }
  throw new RetryComplianceError(lines.join('\n'), audit);
}
