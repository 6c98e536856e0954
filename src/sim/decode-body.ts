import type { z } from 'zod';
import type { ErrorDetail } from '../contract/errors.js';
import { truncate } from './text.js';

type Issue = z.core.$ZodIssue;

function formatPath(path: readonly PropertyKey[]): string {
  let out = 'body';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `.${String(part)}`;
  return out;
}

/** Whether an issue says the value at `path` itself has the wrong type (not something inside it). */
function isRootTypeIssue(issue: Issue, depth: number): boolean {
  return issue.code === 'invalid_type' && issue.path.length <= depth;
}

/** Fewest root type issues first, then fewest issues: the branch the value was meant for. */
function bestBranch(branches: readonly Issue[][]): Issue[] {
  let best = branches[0] as Issue[];
  let bestRoot = Infinity;
  for (const branch of branches) {
    let root = 0;
    for (const issue of branch) if (isRootTypeIssue(issue, 0)) root++;
    if (root < bestRoot || (root === bestRoot && branch.length < best.length)) {
      best = branch;
      bestRoot = root;
    }
  }
  return best;
}

/**
 * Flattens zod issues into details a person can act on, one per field, in the order found. For
 * a union (a query or a batch), the branch that matches the value's shape is reported instead
 * of "Invalid input". Iterative, with no spread of a list: a body with 100,000 bad items is
 * as safe as one with one (the error body then lists the first few and the count).
 */
export function issueDetails(issues: readonly Issue[], basePath: readonly PropertyKey[] = []): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  const add = (path: readonly PropertyKey[], message: string): void => {
    const field = formatPath(path);
    if (seen.has(field)) return;
    seen.add(field);
    details.push({ field, message });
  };
  // Work items in reverse order on a stack, so details come out in the order zod found them.
  const stack: { issue: Issue; base: readonly PropertyKey[] }[] = [];
  for (let i = issues.length - 1; i >= 0; i--) stack.push({ issue: issues[i] as Issue, base: basePath });
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { issue, base } = item;
    const path = base.length === 0 ? issue.path : base.concat(issue.path);
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const best = bestBranch(issue.errors as Issue[][]);
      if (best.every((i) => isRootTypeIssue(i, 0))) {
        add(path, 'Invalid value: none of the accepted shapes matches');
      } else {
        for (let i = best.length - 1; i >= 0; i--) stack.push({ issue: best[i] as Issue, base: path });
      }
      continue;
    }
    add(path, messageOf(issue));
  }
  return details;
}

/** Names an unrecognized-keys issue lists: a few, then the count (zod's message lists them all). */
const LISTED_KEYS = 5;

/** An issue's message, bounded whatever the input: zod lists every unrecognized key. */
function messageOf(issue: Issue): string {
  if (issue.code === 'unrecognized_keys' && issue.keys.length > LISTED_KEYS) {
    const named = issue.keys.slice(0, LISTED_KEYS).map((key) => JSON.stringify(truncate(key, 64))).join(', ');
    return `Unrecognized keys: ${named} and ${issue.keys.length - LISTED_KEYS} more`;
  }
  return truncate(issue.message, 500);
}
