import type { z } from 'zod';
import type { ErrorDetail } from '../contract/errors.js';

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

/**
 * Flattens zod issues into details a person can act on. For a union (a query or a batch),
 * the branch that matches the value's shape is reported instead of "Invalid input".
 */
export function issueDetails(issues: readonly Issue[], basePath: readonly PropertyKey[] = []): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const path = [...basePath, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branches = issue.errors as Issue[][];
      const best = [...branches].sort(
        (a, b) =>
          a.filter((i) => isRootTypeIssue(i, 0)).length - b.filter((i) => isRootTypeIssue(i, 0)).length || a.length - b.length,
      )[0] as Issue[];
      if (best.every((i) => isRootTypeIssue(i, 0))) {
        details.push({ field: formatPath(path), message: 'Invalid value: none of the accepted shapes matches' });
      } else {
        details.push(...issueDetails(best, path));
      }
      continue;
    }
    details.push({ field: formatPath(path), message: issue.message });
  }
  const seen = new Set<string>();
  return details.filter((d) => (seen.has(d.field) ? false : (seen.add(d.field), true)));
}
