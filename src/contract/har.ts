import { z } from 'zod';

/** A HAR name/value pair (headers, query string). */
const harPairSchema = z.object({ name: z.string(), value: z.string() });

/** One HAR 1.2 entry as `GET /__sim/journal.har` writes it, with the simulator's own `_` fields. */
export const harEntrySchema = z.object({
  startedDateTime: z.string().describe('When the simulator clock took the request (ISO 8601)'),
  time: z.number().describe('Milliseconds: the injected latency, the only time the simulator adds'),
  request: z.object({
    method: z.string(),
    url: z.string().describe('Absolute: the Host the request named (http://localhost in process), the mount path, the path and the query'),
    httpVersion: z.string(),
    cookies: z.array(z.never()),
    headers: z.array(harPairSchema).describe('As received; credentials (x-api-key, authorization, cookie, signatures) are [redacted]'),
    queryString: z.array(harPairSchema),
    postData: z.object({ mimeType: z.string(), text: z.string() }).optional().describe('Only with --har-bodies'),
    headersSize: z.literal(-1),
    bodySize: z.number().int(),
  }),
  response: z.object({
    status: z.number().int(),
    statusText: z.string(),
    httpVersion: z.string(),
    cookies: z.array(z.never()),
    headers: z.array(harPairSchema),
    content: z.object({
      size: z.number().int(),
      mimeType: z.string(),
      text: z.string().optional().describe('Only with --har-bodies'),
      encoding: z.literal('base64').optional(),
    }),
    redirectURL: z.string(),
    headersSize: z.literal(-1),
    bodySize: z.number().int(),
  }),
  cache: z.object({}).strict(),
  timings: z.object({ send: z.number(), wait: z.number(), receive: z.number() }),
  _requestId: z.string().describe('The X-Request-ID of the answer'),
  _outcome: z.string().describe("The journal's outcome: admitted or the rule that refused"),
  _seq: z.number().int().describe("The journal entry's position"),
  comment: z.string().optional(),
});

/** `GET /__sim/journal.har`: the journal's exchanges as HAR 1.2. */
export const harSchema = z.object({
  log: z.object({
    version: z.literal('1.2'),
    creator: z.object({ name: z.string(), version: z.string() }),
    entries: z.array(harEntrySchema),
    comment: z.string(),
  }),
});

export type Har = z.infer<typeof harSchema>;
export type HarEntry = z.infer<typeof harEntrySchema>;
