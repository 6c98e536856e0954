import type { z } from 'zod';
import { basketError, type BasketIssue, type SimError } from '../errors.js';

/**
 * The ingestion service's error envelope for the routes that always use it (every ingestion
 * route but `/track`, whose envelope depends on the profile): `basket.<KEY>` codes with
 * `retryable`, `why`, `fix` and, for schema problems, `errors[]`.
 */

/** Most schema problems listed in one `errors[]` (the rest are dropped; the first ones say what to fix). */
export const MAX_BASKET_ISSUES = 20;

/** The catalogue key of each pipeline refusal an ingestion route can give. */
const INGEST_KEY_OF: Readonly<Record<string, 'INGEST_PAYLOAD_TOO_LARGE' | 'DELIVERY_UNAVAILABLE'>> = {
  PAYLOAD_TOO_LARGE: 'INGEST_PAYLOAD_TOO_LARGE',
  EVENT_STORAGE_FULL: 'DELIVERY_UNAVAILABLE',
};

/**
 * A refusal in the ingestion envelope. One already in it stays as is; a pipeline refusal the
 * catalogue has a key for takes that key; any other (malformed JSON, a form body, an outage)
 * keeps its own code, as the service's error hook does for framework errors.
 */
export function asIngestEnvelope(error: SimError): SimError {
  if (error.basket) return error;
  const key = INGEST_KEY_OF[error.code];
  return key ? { ...basketError(key), ...(error.headers ? { headers: error.headers } : {}) } : { ...error, basket: {} };
}

/**
 * zod issues as the envelope lists them: the issue code, the path joined with dots, the
 * message; nested union issues flattened to their branches' issues. Iterative and capped at
 * {@link MAX_BASKET_ISSUES}, whatever the input.
 */
export function basketIssuesOf(issues: readonly z.core.$ZodIssue[]): BasketIssue[] {
  const out: BasketIssue[] = [];
  const stack: { issue: z.core.$ZodIssue; base: readonly PropertyKey[] }[] = [];
  for (let i = issues.length - 1; i >= 0; i--) stack.push({ issue: issues[i] as z.core.$ZodIssue, base: [] });
  for (let item = stack.pop(); item !== undefined && out.length < MAX_BASKET_ISSUES; item = stack.pop()) {
    const { issue, base } = item;
    const path = base.concat(issue.path);
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branches = issue.errors as z.core.$ZodIssue[][];
      for (let b = branches.length - 1; b >= 0; b--) {
        const branch = branches[b] as z.core.$ZodIssue[];
        for (let i = branch.length - 1; i >= 0; i--) stack.push({ issue: branch[i] as z.core.$ZodIssue, base: path });
      }
      continue;
    }
    out.push({ code: issue.code, field: path.map(String).join('.'), message: issue.message });
  }
  return out;
}
