/**
 * Whether a request presents the control token: `Authorization: Bearer <token>` (the scheme in
 * any case). The comparison takes the same time wherever the first difference is, so the
 * answer's timing does not tell a caller how much of a guess was right.
 */
export function presentsControlToken(authorization: string | undefined, token: string): boolean {
  if (authorization === undefined || !authorization.toLowerCase().startsWith('bearer ')) return false;
  return equalsInConstantTime(authorization.slice('bearer '.length).trim(), token);
}

/** Compares two strings in time that depends only on their lengths, not on where they differ. */
function equalsInConstantTime(presented: string, expected: string): boolean {
  let difference = presented.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) {
    difference |= (presented.charCodeAt(i % Math.max(presented.length, 1)) || 0) ^ expected.charCodeAt(i);
  }
  return difference === 0;
}
