import type { z } from 'zod';
import type { ErrorDetail } from '../../contract/errors.js';
import { type CheckDef, defOf, isPlainObject, pathText, unwrap } from './schema-def.js';
import { REQUEST_LIMITS } from '../../contract/request-limits.js';

/** How many schema levels the walk follows: the depth is the schema's, never the input's. */
const MAX_DEPTH = 12;

/** What the walk needs of a schema node, worked out once per node (schemas are module constants). */
type NodeInfo =
  | { readonly kind: 'array'; readonly element: z.ZodType; readonly max?: CheckDef; readonly walk: boolean }
  | { readonly kind: 'object'; readonly children: readonly (readonly [string, z.ZodType])[] }
  | { readonly kind: 'union'; readonly arrays: readonly z.ZodType[]; readonly objects: readonly z.ZodType[] }
  | { readonly kind: 'record' }
  | { readonly kind: 'leaf' };

const infoByNode = new WeakMap<z.ZodType, NodeInfo>();

function infoOf(node: z.ZodType, depth = 0): NodeInfo {
  let info = infoByNode.get(node);
  if (info) return info;
  const def = defOf(unwrap(node));
  if (depth > MAX_DEPTH) {
    info = { kind: 'leaf' };
  } else if (def.type === 'array' && def.element) {
    const max = def.checks?.map((c) => c._zod.def).find((c) => c.check === 'max_length');
    const element = def.element;
    info = { kind: 'array', element, ...(max ? { max } : {}), walk: holdsItems(infoOf(element, depth + 1)) };
  } else if (def.type === 'object' && def.shape) {
    const children = Object.entries(def.shape).filter(([, child]) => holdsItems(infoOf(child, depth + 1)));
    info = children.length > 0 ? { kind: 'object', children } : { kind: 'leaf' };
  } else if (def.type === 'record') {
    info = { kind: 'record' };
  } else if (def.type === 'union' && def.options) {
    const options = def.options.filter((option) => holdsItems(infoOf(option, depth + 1)));
    const arrays = options.filter((option) => infoOf(option).kind === 'array');
    const objects = options.filter((option) => infoOf(option).kind !== 'array');
    info = arrays.length + objects.length > 0 ? { kind: 'union', arrays, objects } : { kind: 'leaf' };
  } else {
    info = { kind: 'leaf' };
  }
  infoByNode.set(node, info);
  return info;
}

/** Whether a value of this node can hold a list or a record (the walk skips everything else). */
function holdsItems(info: NodeInfo): boolean {
  return info.kind !== 'leaf';
}

/** The cap's own message (the schema's words naming cap and count), or a plain one. */
function capMessage(max: CheckDef, input: readonly unknown[]): string {
  const maximum = max.maximum ?? 0;
  const own = max.error?.({ code: 'too_big', origin: 'array', maximum, inclusive: true, input, path: [] });
  if (typeof own === 'string') return own;
  if (own && typeof own === 'object' && typeof (own as { message?: unknown }).message === 'string') return (own as { message: string }).message;
  return `At most ${maximum} items; got ${input.length}`;
}

/**
 * The first array in `value` longer than its schema's `.max()`, as a detail naming the field,
 * the cap and the count sent; or, when every list is within its cap but the items of the lists
 * and the fields of the objects the walk reaches are together over `REQUEST_LIMITS.totalItems`,
 * a detail saying so; undefined otherwise. Cheap by
 * design, it runs before the schema parses anything: it follows the schema (at most
 * {@link MAX_DEPTH} levels, whatever the input's nesting), reads lengths, and walks into an
 * array's items only when the array is within its cap and its items can hold arrays themselves.
 */
export function findOversizedArray(schema: z.ZodType, value: unknown, base = 'body'): ErrorDetail | undefined {
  const found = walk(schema, value, base);
  if (typeof found !== 'number') return found;
  const budget = REQUEST_LIMITS.totalItems;
  return found > budget ? { field: base, message: `At most ${budget} items (list items and object fields, all together) are accepted in one request; got ${found}` } : undefined;
}

/** The first array over its cap, or the items of the lists and the fields of the objects reached, summed. */
function walk(schema: z.ZodType, value: unknown, base: string): ErrorDetail | number {
  let items = 0;
  const counted = new WeakSet<object>();
  const path: (string | number)[] = [];
  const visit = (node: z.ZodType, at: unknown): ErrorDetail | undefined => {
    const info = infoOf(node);
    if (info.kind === 'union') {
      const branches = Array.isArray(at) ? info.arrays : isPlainObject(at) ? info.objects : [];
      for (const branch of branches) {
        const found = visit(branch, at);
        if (found) return found;
      }
      return undefined;
    }
    if (info.kind === 'array') {
      if (!Array.isArray(at)) return undefined;
      if (info.max?.maximum !== undefined && at.length > info.max.maximum) {
        return { field: pathText(base, path), message: capMessage(info.max, at) };
      }
      items += at.length;
      if (!info.walk) return undefined;
      for (let i = 0; i < at.length; i++) {
        path.push(i);
        const found = visit(info.element, at[i]);
        path.pop();
        if (found) return found;
      }
      return undefined;
    }
    if (!isPlainObject(at)) return undefined;
    // Fields count as items too: the schema looks at each of them, declared or not.
    if (!counted.has(at)) {
      counted.add(at); // once, though a union may walk it as each of its object branches
      for (const name in at) if (Object.prototype.hasOwnProperty.call(at, name)) items++;
    }
    if (info.kind !== 'object') return undefined;
    for (const [name, child] of info.children) {
      if (!Object.prototype.hasOwnProperty.call(at, name)) continue;
      path.push(name);
      const found = visit(child, at[name]);
      path.pop();
      if (found) return found;
    }
    return undefined;
  };
  return visit(schema, value) ?? items;
}
