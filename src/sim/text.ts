/**
 * Text the simulator writes into answers: instants in ISO 8601, untrusted input shortened before
 * it is echoed, and "did you mean" suggestions for misspelt names.
 */

/**
 * An instant as answers carry it: ISO 8601, UTC, with milliseconds. Instants past what a
 * JavaScript date can print are clamped, so formatting never throws.
 */
export function formatIso(ms: number): string {
  return new Date(Math.max(-8.64e15, Math.min(ms, 8.64e15))).toISOString();
}

/** {@link formatIso}, with null passed through (for optional instants such as `revokedAt`). */
export function formatIsoOrNull(ms: number | null): string | null {
  return ms === null ? null : formatIso(ms);
}

/**
 * A whole number with a comma between groups of three digits (`1048576` → `1,048,576`), as
 * `toLocaleString('en-US')` writes it, without loading the locale data whose first use costs
 * start-up about 10 ms.
 */
export function groupDigits(count: number): string {
  const digits = String(Math.trunc(Math.abs(count)));
  return (count <= -1 ? '-' : '') + digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Shortens untrusted text before it is echoed in an error. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Finds the candidate closest to a misspelt `input`, for "Did you mean" hints. Scores combine
 * a shared prefix with edit distance; returns undefined when nothing is close enough.
 */
export function suggest(input: string, candidates: readonly string[]): string | undefined {
  const needle = input.toLowerCase().slice(0, 64);
  if (needle.length === 0) return undefined;
  let best: string | undefined;
  let bestScore = 0;
  for (const candidate of candidates) {
    const score = similarity(needle, candidate.toLowerCase());
    if (score > bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return bestScore >= 0.5 ? best : undefined;
}

/**
 * The best of three views of closeness: edit distance, a shared prefix, and `a` read as an
 * abbreviation of `b` (its letters in order, as in "summry" → "summary_metrics").
 */
function similarity(a: string, b: string): number {
  if (b.startsWith(a) || a.startsWith(b)) return 0.5 + (0.5 * Math.min(a.length, b.length)) / Math.max(a.length, b.length);
  const edit = 1 - editDistance(a, b) / Math.max(a.length, b.length);
  let prefix = 0;
  while (prefix < a.length && a[prefix] === b[prefix]) prefix++;
  const prefixScore = prefix >= 3 ? (0.8 * prefix) / a.length : 0;
  const abbreviation = a.length >= 3 && b[0] === a[0] && isSubsequence(a, b) ? 0.75 + (0.2 * a.length) / b.length : 0;
  return Math.max(edit, prefixScore, abbreviation);
}

function isSubsequence(a: string, b: string): boolean {
  let j = 0;
  for (let i = 0; i < b.length && j < a.length; i++) if (b[i] === a[j]) j++;
  return j === a.length;
}

function editDistance(a: string, b: string): number {
  // Optimal string alignment: a swap of two neighbours ("prot" for "port") costs one edit.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (before[j - 2] as number) + 1);
      current[j] = best;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

/** A finding of what the simulator ignored, as one line: `field: message. suggestion`. */
export function describeFinding(finding: { readonly field: string; readonly message: string; readonly suggestion?: string }): string {
  return finding.suggestion ? `${finding.field}: ${finding.message}. ${finding.suggestion}` : `${finding.field}: ${finding.message}`;
}

/**
 * Bytes of a string in UTF-8, counted up to the first byte past `max` (then `max + 1` or a little
 * more is returned): a size check costs no more than the limit it checks.
 */
export function utf8ByteLength(text: string, max = Number.POSITIVE_INFINITY): number {
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= max; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
