import type { z } from 'zod';
import type { ErrorDetail } from '../../contract/errors.js';
import { defOf, isPlainObject, pathText, unwrap } from './schema-def.js';
import { suggest, truncate } from '../text.js';

/** How deep into a body unknown names are looked for (body → batch item → parameter). */
const MAX_DEPTH = 4;
/** Array items looked at per array, and names reported per request: the work stays bounded. */
const MAX_ITEMS = 100;
const MAX_FINDINGS = 10;

/** What the walk needs of a schema node, worked out once per node (schemas are module constants). */
type NodeInfo =
  | { readonly kind: 'object'; readonly shape: Record<string, z.ZodType>; readonly declared: readonly string[]; readonly open: boolean }
  | { readonly kind: 'array'; readonly element: z.ZodType }
  | { readonly kind: 'union'; readonly arrayBranch?: z.ZodType; readonly objectBranch?: z.ZodType }
  | { readonly kind: 'other' };

const infoByNode = new WeakMap<z.ZodType, NodeInfo>();

function infoOf(node: z.ZodType): NodeInfo {
  let info = infoByNode.get(node);
  if (info) return info;
  const def = defOf(unwrap(node));
  if (def.type === 'object' && def.shape) {
    const open = def.catchall !== undefined && defOf(def.catchall).type !== 'never';
    info = { kind: 'object', shape: def.shape, declared: Object.keys(def.shape), open };
  } else if (def.type === 'array' && def.element) {
    info = { kind: 'array', element: def.element };
  } else if (def.type === 'union' && def.options) {
    const branch = (type: string) => def.options?.find((option) => defOf(unwrap(option)).type === type);
    info = { kind: 'union', arrayBranch: branch('array'), objectBranch: branch('object') };
  } else {
    info = { kind: 'other' };
  }
  infoByNode.set(node, info);
  return info;
}

/** Whether a walk can find anything under a node (objects, unions and arrays of them). */
function canHoldFields(info: NodeInfo): boolean {
  if (info.kind === 'object' || info.kind === 'union') return true;
  return info.kind === 'array' && canHoldFields(infoOf(info.element));
}

/** The findings of a clean body (shared, never mutated). */
const NO_FINDINGS: ErrorDetail[] = Object.freeze([]) as unknown as ErrorDetail[];

/** A path segment: a field name, or an array index. */
type Segment = string | number;

/** No query-string parameter to point a body field to. */
const NO_QUERY_FIELDS: readonly string[] = [];

/** The query-string parameter a top-level body field stands for (`websiteId` → `website_id`), if the route takes one. */
function queryParameterOf(name: string, queryFields: readonly string[]): string | undefined {
  if (queryFields.length === 0) return undefined;
  const snake = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return queryFields.find((field) => field === name || field === snake);
}

/**
 * Names in a body that its schema does not declare, so the simulator ignored them (as the
 * live service does): each with its path and, when a declared name is close, a did-you-mean.
 * Bounded: at most {@link MAX_DEPTH} levels, {@link MAX_ITEMS} items per array and
 * {@link MAX_FINDINGS} findings, whatever the body's size. A clean body costs a key lookup per
 * field and allocates nothing: paths are written only for findings, and arrays of plain values
 * are not walked. A top-level field the route takes in its query string (`queryFields`, e.g.
 * `websiteId` for `website_id`) is pointed there instead.
 */
export function findUnknownFields(schema: z.ZodType, value: unknown, base = 'body', queryFields: readonly string[] = NO_QUERY_FIELDS): ErrorDetail[] {
  let found: ErrorDetail[] | undefined;
  const path: Segment[] = [];
  const visit = (node: z.ZodType, at: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || (found !== undefined && found.length >= MAX_FINDINGS)) return;
    const info = infoOf(node);
    if (info.kind === 'union') {
      const branch = Array.isArray(at) ? info.arrayBranch : isPlainObject(at) ? info.objectBranch : undefined;
      if (branch) visit(branch, at, depth);
      return;
    }
    if (info.kind === 'array') {
      if (!Array.isArray(at) || !canHoldFields(infoOf(info.element))) return;
      const count = Math.min(at.length, MAX_ITEMS);
      for (let i = 0; i < count && (found === undefined || found.length < MAX_FINDINGS); i++) {
        path.push(i);
        visit(info.element, at[i], depth + 1);
        path.pop();
      }
      return;
    }
    if (info.kind !== 'object' || !isPlainObject(at)) return;
    for (const name in at) {
      if (found !== undefined && found.length >= MAX_FINDINGS) return;
      if (!Object.prototype.hasOwnProperty.call(at, name)) continue;
      const child = Object.prototype.hasOwnProperty.call(info.shape, name) ? info.shape[name] : undefined;
      if (child) {
        const value = at[name];
        if (typeof value !== 'object' || value === null) continue;
        path.push(name);
        visit(child, value, depth + 1);
        path.pop();
      } else if (!info.open) {
        const param = path.every((segment) => typeof segment === 'number') ? queryParameterOf(name, queryFields) : undefined;
        const near = param === undefined ? suggest(name, info.declared) : undefined;
        path.push(name);
        (found ??= []).push({
          field: pathText(base, path),
          message: `${truncate(name, 64)} is not a field of this request and was ignored`,
          ...(param !== undefined ? { suggestion: `It belongs in the query string: ?${param}=…` } : near ? { suggestion: `Did you mean '${near}'?` } : {}),
        });
        path.pop();
      }
    }
  };
  visit(schema, value, 0);
  return found ?? NO_FINDINGS;
}
