import type { z } from 'zod';
import { basketErrorBodySchema } from '../../contract/errors.js';
import { MAX_ERROR_DETAILS } from '../../contract/request-limits.js';
import { basketError, type BasketErrorKey, type BasketIssue, type SimError } from '../errors.js';
import type { DocumentedResponse } from '../routing/route.js';

/** The live catalogue key of each simulator refusal code a route can give. */
export type BasketKeys = Readonly<Record<string, BasketErrorKey>>;

/** A documented refusal: its description, the body in the ingestion service's envelope. */
export function basketRefusal(description: string): DocumentedResponse {
  return { description, schema: basketErrorBodySchema };
}

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

/** Schema problems listed at most (the envelope shows the first few). */
const MAX_ISSUES = MAX_ERROR_DETAILS;

/**
 * Zod issues as the service's envelope lists them (`sanitizeValidationIssues`): the issue code,
 * the path joined with dots, zod's message; a union's issue is replaced by the issues of its
 * branches, with their own (relative) paths, as the service flattens them.
 */
export function basketIssuesOf(issues: readonly z.core.$ZodIssue[]): BasketIssue[] {
  const out: BasketIssue[] = [];
  // Work items in reverse order on a stack, so the issues come out in the order zod found them.
  const stack: z.core.$ZodIssue[] = [];
  for (let i = issues.length - 1; i >= 0; i--) stack.push(issues[i] as z.core.$ZodIssue);
  for (let issue = stack.pop(); issue !== undefined && out.length < MAX_ISSUES; issue = stack.pop()) {
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const nested = issue.errors.flat();
      for (let i = nested.length - 1; i >= 0; i--) stack.push(nested[i] as z.core.$ZodIssue);
      continue;
    }
    out.push({ code: issue.code, field: issue.path.map(String).join('.'), message: issue.message });
  }
  return out;
}

