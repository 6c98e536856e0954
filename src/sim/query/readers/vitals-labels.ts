/** A stored path as the vitals and engagement-span builders name pages: URL-decoded, trailing slash trimmed, '/' for root. */
export function pagePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape stays as stored, as decodeURLComponent leaves it.
  }
  const trimmed = decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded;
  return trimmed === '' ? '/' : trimmed;
}
