import type { z } from 'zod';
import { truncate } from '../text.js';

/** A zod check's definition, as far as the body walks read it (`max_length` and its message). */
export interface CheckDef {
  readonly check: string;
  readonly maximum?: number;
  readonly error?: (issue: unknown) => unknown;
}

/** A zod schema node's definition, as far as the body walks read it. */
export interface SchemaDef {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly catchall?: z.ZodType;
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDef } }[];
}

/** The definition of a schema node (zod 4 keeps it at `_zod.def`). */
export function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/** The schema under wrappers (optional, nullable, default, catch, readonly, pipe); at most 8 levels. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 8; i++) {
    const def = defOf(current);
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) return current;
    current = inner;
  }
  return current;
}

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A body path as error details name it: `body.batch[3].filters`, names cut at 64 characters. */
export function pathText(base: string, segments: readonly (string | number)[]): string {
  let text = base;
  for (const segment of segments) text += typeof segment === 'number' ? `[${segment}]` : `.${truncate(segment, 64)}`;
  return text;
}
