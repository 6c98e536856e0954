/** A larger copy of `buffer`: twice the size, at most `cap`. */
function grow(buffer: Int32Array, cap: number): Int32Array {
  const larger = new Int32Array(Math.min(cap, buffer.length * 2));
  larger.set(buffer);
  return larger;
}

/** What {@link measureJson} reads of a JSON text. */
export interface JsonShape {
  /** The deepest nesting of arrays and objects. */
  readonly depth: number;
  /** Arrays, objects and object fields in all. */
  readonly nodes: number;
  /** The most fields one object has (many fields in one object make `JSON.parse` slow). */
  readonly widest: number;
}

/**
 * How deeply a JSON text nests arrays and objects, how many of them and of object fields it
 * holds, and the most fields of one object, read from the characters (strings skipped, escapes
 * honoured) without parsing: one pass, no recursion, a small buffer for most bodies;
 * past `maxDepth` levels it only counts. Malformed text gets figures too; parsing decides later
 * whether it is JSON at all. Used to refuse a body over `REQUEST_LIMITS.jsonDepth`,
 * `jsonNodes` or `objectFields` before `JSON.parse` spends time on it.
 */
export function measureJson(text: string, maxDepth: number): JsonShape {
  // Fields of each open object by depth (-1 for an array), up to maxDepth levels: a small
  // buffer, grown only for a body that nests deeper.
  let open: Int32Array = new Int32Array(Math.min(64, maxDepth + 2));
  let depth = 0;
  let deepest = 0;
  let nodes = 0;
  let widest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      nodes++;
      if (++depth > deepest) deepest = depth;
      if (depth <= maxDepth + 1) {
        if (depth >= open.length) open = grow(open, maxDepth + 2);
        open[depth] = c === 0x7b ? 0 : -1;
      }
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
    } else if (c === 0x3a) {
      nodes++; // a colon outside strings: one object field
      if (depth > 0 && depth <= maxDepth + 1 && (open[depth] as number) >= 0) {
        const fields = ++(open[depth] as number);
        if (fields > widest) widest = fields;
      }
    }
  }
  return { depth: deepest, nodes, widest };
}
