import type { z } from 'zod';
import { basketError, type BasketErrorKey, type BasketIssue, type SimError } from '../errors.js';

/** The live catalogue key of each simulator refusal code a route can give. */
export type BasketKeys = Readonly<Record<string, BasketErrorKey>>;

/** The zod issue code a detail's message comes from (the envelope names it; `custom` otherwise). */
export function issueCode(message: string): string {
  if (message.startsWith('Invalid input: expected')) return 'invalid_type';
  if (message.startsWith('Too big') || message.startsWith('A batch holds at most')) return 'too_big';
  if (message.startsWith('Too small')) return 'too_small';
  if (message.startsWith('Unrecognized key')) return 'unrecognized_keys';
  if (message.startsWith('Invalid option')) return 'invalid_value';
  if (message.startsWith('Property name')) return 'invalid_key';
  return 'custom';
}

const INDEX = /\[(\d+)\]/g;

/**
 * A detail's field as the live envelope names it, the zod path joined with dots: `body.traits.plan`
 * → `traits.plan`, `body[3].tool` → `3.tool`, `body` → `` (the body itself).
 */
export function basketPath(field: string): string {
  if (field !== 'body' && !field.startsWith('body.') && !field.startsWith('body[')) return field;
  return field.slice(4).replace(INDEX, '.$1').replace(/^\./, '');
}

/**
 * Rewrites a route's refusals into the ingestion service's envelope: each code `keys` names
 * becomes `basket.<KEY>` with the catalogue's message, why and fix, and for
 * INVALID_EVENT_SCHEMA `errors:[{code, field, message}]` (fields named by `fieldOf`). A refusal
 * already in the envelope stays as it is; one the catalogue has no key for (malformed JSON, an
 * unsupported media type, an outage) keeps its own code, as the service's error hook does for
 * framework errors.
 */
export function createBasketEnvelope(keys: BasketKeys, fieldOf: (field: string) => string = basketPath): (error: SimError) => SimError {
  return (error) => {
    if (error.basket) return error;
    const key = keys[error.code];
    if (!key) return { ...error, basket: {} };
    const issues: BasketIssue[] | undefined =
      key === 'INVALID_EVENT_SCHEMA' && error.details
        ? error.details.map((d) => ({ code: issueCode(d.message), field: fieldOf(d.field), message: d.message }))
        : undefined;
    return basketError(key, issues);
  };
}

/**
 * The catalogue keys the refusals of the pipeline's own stages take on every ingestion route but
 * `/track`: an oversized body, a body that fails the schema, and a full store.
 */
export const INGEST_PIPELINE_KEYS: BasketKeys = {
  PAYLOAD_TOO_LARGE: 'INGEST_PAYLOAD_TOO_LARGE',
  INVALID_EVENT_SCHEMA: 'INVALID_EVENT_SCHEMA',
  VALIDATION_ERROR: 'INVALID_EVENT_SCHEMA',
  EVENT_STORAGE_FULL: 'DELIVERY_UNAVAILABLE',
};

/** The envelope of every ingestion route but `/track`: the pipeline's refusals with their catalogue keys. */
export const asIngestEnvelope = createBasketEnvelope(INGEST_PIPELINE_KEYS);

/** Most schema problems listed in one `errors[]` (the rest are dropped; the first ones say what to fix). */
export const MAX_BASKET_ISSUES = 20;

/**
 * zod issues as the envelope lists them: the issue code, the path joined with dots, the
 * message; nested union issues flattened to their branches' issues. Iterative and capped at
 * {@link MAX_BASKET_ISSUES}, whatever the input.
 */
export function basketIssuesOf(issues: readonly z.core.$ZodIssue[]): BasketIssue[] {
  const out: BasketIssue[] = [];
  const stack: { issue: z.core.$ZodIssue; base: readonly PropertyKey[] }[] = [];
  for (let i = issues.length - 1; i >= 0; i--) stack.push({ issue: issues[i] as z.core.$ZodIssue, base: [] });
  for (let item = stack.pop(); item !== undefined && out.length < MAX_BASKET_ISSUES; item = stack.pop()) {
    const { issue, base } = item;
    const path = base.concat(issue.path);
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branches = issue.errors as z.core.$ZodIssue[][];
      for (let b = branches.length - 1; b >= 0; b--) {
        const branch = branches[b] as z.core.$ZodIssue[];
        for (let i = branch.length - 1; i >= 0; i--) stack.push({ issue: branch[i] as z.core.$ZodIssue, base: path });
      }
      continue;
    }
    out.push({ code: issue.code, field: path.map(String).join('.'), message: issue.message });
  }
  return out;
}
