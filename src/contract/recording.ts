import { z } from 'zod';
import { filterSchema } from './query-request.js';
import { cappedArray } from './request-limits.js';

/**
 * A recording: the answers a deployment gave to query parameters, written by
 * `analytics-sim record` and answered again by `serve --replay FILE` or
 * `createSimulator({ replay })`. One schema for the file: validation, types and docs.
 */

/** The recording format this version writes and reads. */
export const RECORDING_VERSION = 1;

/** Most entries one recording holds (record stops there; a longer file is refused). */
export const MAX_RECORDING_ENTRIES = 10_000;

/** Most rows one entry holds (the service's largest page). */
export const MAX_RECORDING_ROWS = 10_000;

/** Largest recording file read, in bytes. */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;

/** Most lines `missing` holds. */
export const MAX_MISSING_NOTES = 1_000;

/**
 * Prefixes of the secrets a recording must never hold: API keys (`dbdy_`), Stripe signing
 * secrets (`whsec_`), Paddle notification secrets (`pdl_ntfset_`).
 */
export const SECRET_PREFIXES = ['dbdy_', 'whsec_', 'pdl_ntfset_'] as const;

/** Field names that carry a credential: a recording never has one, at any depth. */
export const CREDENTIAL_FIELDS = ['x-api-key', 'authorization', 'cookie', 'set-cookie', 'proxy-authorization'] as const;

/** A date of a range: `YYYY-MM-DD` or an ISO 8601 instant (the core checks that it is a real one). */
const rangeDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/, 'a date YYYY-MM-DD or an ISO 8601 instant');

const id = z.string().min(1).max(200);

/** Which resource the parameter was asked on: exactly one of the query-string ids of `POST /v1/query`. */
export const recordedScopeSchema = z
  .object({
    website_id: id.optional(),
    organization_id: id.optional(),
    link_id: id.optional(),
    schedule_id: id.optional(),
  })
  .strict()
  .refine((scope) => Object.values(scope).filter((v) => v !== undefined).length === 1, {
    error: 'names exactly one of website_id, organization_id, link_id or schedule_id',
  })
  .describe('The resource asked about, as the query string of POST /v1/query names it');

export type RecordedScope = z.infer<typeof recordedScopeSchema>;

/** One recorded parameter: the query that asked it, normalized, and the rows the deployment answered. */
export const recordingEntrySchema = z
  .object({
    type: z.string().min(1).max(100).describe('The query type (a parameter name of POST /v1/query)'),
    scope: recordedScopeSchema,
    startDate: rangeDate.describe('Start of the range as sent (YYYY-MM-DD: the start of that UTC day)'),
    endDate: rangeDate.describe('End of the range as sent (YYYY-MM-DD: the end of that UTC day)'),
    timezone: z.string().min(1).max(64).default('UTC').describe('The ?timezone= of the request (default UTC)'),
    filters: cappedArray(filterSchema, 50, 'filters are recorded for one parameter').default([]).describe('The filters of the query, in order'),
    granularity: z.enum(['daily', 'hourly']).default('daily').describe('Buckets of a time series (default daily)'),
    limit: z.number().int().min(1).max(MAX_RECORDING_ROWS).optional().describe('The limit sent; absent: none was sent (the type pages by its default)'),
    page: z.number().int().min(1).default(1).describe('The page sent (default 1)'),
    sortBy: z.string().min(1).max(64).optional(),
    sortOrder: z.enum(['asc', 'desc']).optional(),
    rows: cappedArray(z.record(z.string(), z.unknown()), MAX_RECORDING_ROWS, 'rows are recorded for one parameter').describe("The parameter's data, as the deployment answered it"),
  })
  .strict();

export type RecordingEntry = z.infer<typeof recordingEntrySchema>;

/** Where a value holds a credential (at most ten places): a credential field name, a string with a secret's prefix, a Bearer token. */
export function findSecretPaths(value: unknown): { path: (string | number)[]; why: string }[] {
  const found: { path: (string | number)[]; why: string }[] = [];
  findSecrets(value, [], found);
  return found;
}

/** Walks a value for credentials: a credential field name, a string with a secret's prefix, a Bearer token. */
function findSecrets(value: unknown, path: (string | number)[], found: { path: (string | number)[]; why: string }[]): void {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path }];
  while (stack.length > 0 && found.length < 10) {
    const item = stack.pop() as { value: unknown; path: (string | number)[] };
    if (typeof item.value === 'string') {
      const prefix = SECRET_PREFIXES.find((p) => item.value !== null && (item.value as string).includes(p));
      if (prefix !== undefined) found.push({ path: item.path, why: `holds a value that starts like a secret (${prefix}…)` });
      else if (/^\s*(bearer|basic)\s+\S/i.test(item.value)) found.push({ path: item.path, why: 'holds a credential (an Authorization value)' });
    } else if (Array.isArray(item.value)) {
      for (let i = item.value.length - 1; i >= 0; i--) stack.push({ value: item.value[i], path: [...item.path, i] });
    } else if (item.value !== null && typeof item.value === 'object') {
      for (const [key, inner] of Object.entries(item.value).reverse()) {
        if ((CREDENTIAL_FIELDS as readonly string[]).includes(key.toLowerCase())) {
          found.push({ path: [...item.path, key], why: `is a credential field (${key})` });
          continue;
        }
        stack.push({ value: inner, path: [...item.path, key] });
      }
    }
  }
}

/** What a secret found in a recording is told with. */
function secretMessage(why: string): string {
  return `${why}: a recording never holds credentials; remove it (analytics-sim record never writes one)`;
}

/** The recording file. A secret anywhere in it (a credential field, a key's or a webhook secret's prefix) refuses it. */
export const recordingSchema = z
  .object({
    $schema: z.string().optional(),
    version: z.literal(RECORDING_VERSION, {
      error: (issue) => `unknown recording version ${JSON.stringify(issue.input)}: this analytics-sim reads version ${RECORDING_VERSION}; record it again with analytics-sim record`,
    }),
    target: z.string().min(1).max(2048).describe('The base URL recorded from (never a credential)'),
    recordedAt: z.string().min(1).max(64).describe('When the recording ended, ISO 8601 (the recorder’s clock)'),
    complete: z.boolean().describe('false: some parameters asked were not recorded; missing says which'),
    missing: cappedArray(z.string().max(1000), MAX_MISSING_NOTES, 'notes of what is missing').optional().describe('What was asked and not recorded, and why'),
    entries: cappedArray(recordingEntrySchema, MAX_RECORDING_ENTRIES, 'entries are read from one recording'),
  })
  .strict()
  .superRefine((recording, ctx) => {
    const found: { path: (string | number)[]; why: string }[] = [];
    findSecrets(recording, [], found);
    for (const { path, why } of found) {
      ctx.addIssue({ code: 'custom', path, message: secretMessage(why) });
    }
  });

/** A recording as read (defaults filled in). */
export type Recording = z.infer<typeof recordingSchema>;

/** A recording as written (defaults may be left out). */
export type RecordingInput = z.input<typeof recordingSchema>;

/** The JSON Schema of a recording file (docs/recording.schema.json, written by `npm run docs:config`). */
export function recordingJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(recordingSchema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }),
    title: 'analytics-sim recording',
    description:
      'Answers of a deployment to query parameters, written by analytics-sim record and answered again by analytics-sim serve --replay FILE or createSimulator({ replay }). Never holds a credential.',
  };
}

/** `entries[3].scope`: a path of an issue as text. */
function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : `${text}${text ? '.' : ''}${String(part)}`), '') || '(root)';
}

/**
 * Checks a parsed recording file. Returns the recording, or the problems, each naming the entry
 * (`entry 3 (entries[3].scope): …`) or the field; an unknown version is the only problem reported.
 */
export function parseRecording(input: unknown): { ok: true; recording: Recording } | { ok: false; problems: string[] } {
  const version = input !== null && typeof input === 'object' ? (input as { version?: unknown }).version : undefined;
  if (version !== RECORDING_VERSION) {
    const parsed = z.object({ version: recordingSchema.shape.version }).safeParse({ version });
    const what = input === null || typeof input !== 'object' || Array.isArray(input) ? 'a recording is a JSON object with version, target, recordedAt, complete and entries' : undefined;
    return { ok: false, problems: [what ?? (parsed.success ? 'version: unreadable' : `version: ${parsed.error.issues[0]?.message ?? 'unknown'}`)] };
  }
  // Secrets first, anywhere in the file, whatever else is wrong with it.
  const secrets: { path: (string | number)[]; why: string }[] = [];
  findSecrets(input, [], secrets);
  const result = secrets.length > 0 ? null : recordingSchema.safeParse(input);
  if (result?.success) return { ok: true, recording: result.data };
  const issues = result ? result.error.issues : secrets.map(({ path, why }) => ({ path, message: secretMessage(why) }));
  return {
    ok: false,
    problems: issues.slice(0, 10).map((issue) => {
      const entry = issue.path[0] === 'entries' && typeof issue.path[1] === 'number' ? `entry ${issue.path[1]} (${pathText(issue.path)})` : pathText(issue.path);
      return `${entry}: ${issue.message}`;
    }),
  };
}
