import type { z } from 'zod';
import type { ErrorDetail } from '../../contract/errors.js';

/** A body a route's schema accepted: the parsed value (deeply frozen) and the fields it ignored. */
export interface DecodedBody {
  readonly data: unknown;
  readonly unknownFields: readonly ErrorDetail[];
}

/** Bodies longer than this are decoded every time: a client repeating a large body is rare, and keeping it costs memory. */
const MAX_REMEMBERED_CHARS = 2048;
/** Bodies remembered per schema, the least recently used forgotten first. */
const MAX_REMEMBERED_BODIES = 256;

/** One schema's remembered bodies, oldest first, and the text used last (moving it to the end again changes nothing). */
interface Remembered {
  readonly bodies: Map<string, DecodedBody>;
  newest: string | undefined;
}

const bySchema = new WeakMap<z.ZodType, Remembered>();

/**
 * The decoding of a body text a schema already accepted, if remembered. Decoding is a pure
 * function of the schema and the text (measure, parse, caps, schema, unknown fields), and
 * clients repeat the same few bodies (a dashboard polling, a load test), so the request path
 * skips that work for them. At most {@link MAX_REMEMBERED_BODIES} texts of at most
 * {@link MAX_REMEMBERED_CHARS} characters per schema: memory never grows with the bodies seen.
 */
export function rememberedBody(schema: z.ZodType, text: string): DecodedBody | undefined {
  if (text.length > MAX_REMEMBERED_CHARS) return undefined;
  const remembered = bySchema.get(schema);
  const found = remembered?.bodies.get(text);
  // A client repeating one body (a poll, a load test) finds it newest already: no Map churn per request.
  if (remembered && found && remembered.newest !== text) {
    remembered.bodies.delete(text);
    remembered.bodies.set(text, found);
    remembered.newest = text;
  }
  return found;
}

/**
 * Remembers what `schema` made of `text` (see {@link rememberedBody}). The value is frozen
 * all the way down, as every later request with the same text shares it: a stage that
 * changed a body in place would throw instead of changing another request's.
 */
export function rememberBody(schema: z.ZodType, text: string, data: unknown, unknownFields: readonly ErrorDetail[]): DecodedBody {
  const decoded: DecodedBody = { data, unknownFields };
  if (text.length > MAX_REMEMBERED_CHARS) return decoded;
  deepFreeze(data);
  let remembered = bySchema.get(schema);
  if (!remembered) {
    remembered = { bodies: new Map(), newest: undefined };
    bySchema.set(schema, remembered);
  }
  const { bodies } = remembered;
  if (bodies.size >= MAX_REMEMBERED_BODIES) bodies.delete(bodies.keys().next().value as string);
  bodies.set(text, decoded);
  remembered.newest = text;
  return decoded;
}

/** Freezes a parsed JSON value and everything in it (at most a 2 KB body's worth, with an explicit stack, no recursion). */
function deepFreeze(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object' || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const child of Object.values(item)) stack.push(child);
  }
}
