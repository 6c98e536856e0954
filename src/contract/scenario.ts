import { z } from 'zod';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/**
 * A span of time: milliseconds as a number, or a string such as "500ms", "30s", "2m", "1h".
 */
export const durationSchema = z
  .union([
    z.number().int().nonnegative(),
    z.string().regex(/^\d+(\.\d+)?(ms|s|m|h)$/, 'a duration such as "500ms", "30s", "2m" or "1h"'),
  ])
  .transform((value) => {
    if (typeof value === 'number') return value;
    const [, amount, unit] = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value) as RegExpExecArray;
    return Math.round(Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS]);
  });

/** Which requests a step touches. Every given field must match; an empty match takes all API requests. */
export const scenarioMatchSchema = z
  .object({
    /** A path (`/v1/query`), a route pattern, or a prefix ending in `*` (`/v1/*`). */
    route: z.string().min(1).optional(),
    method: z.string().min(1).optional(),
    /** The API key id (not the secret). */
    keyId: z.string().min(1).optional(),
    /** The `website_id` query parameter. */
    websiteId: z.string().min(1).optional(),
    /** `apikey:<id>`, `user:<id>` or `anon:<ip>`. */
    identity: z.string().min(1).optional(),
    /** Share of matching requests affected, drawn per (scenario, key, request ordinal). */
    probability: z.number().min(0).max(1).default(1),
  })
  .strict();

export type ScenarioMatch = z.infer<typeof scenarioMatchSchema>;

/** A delay distribution, in milliseconds. */
export const latencySchema = z.discriminatedUnion('distribution', [
  z.object({ distribution: z.literal('fixed'), ms: z.number().int().nonnegative().max(60_000) }).strict(),
  z
    .object({ distribution: z.literal('uniform'), minMs: z.number().int().nonnegative(), maxMs: z.number().int().nonnegative().max(60_000) })
    .strict()
    .refine((v) => v.minMs <= v.maxMs, { message: 'minMs must not exceed maxMs', path: ['minMs'] }),
  z
    .object({ distribution: z.literal('lognormal'), medianMs: z.number().positive().max(60_000), sigma: z.number().positive().max(3), maxMs: z.number().int().positive().max(60_000).default(30_000) })
    .strict(),
]);

/** What a step does to the requests it matches. */
export const scenarioEffectSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('rate_limit'), retryAfterSeconds: z.number().int().min(1).max(3600).default(1), limit: z.number().int().positive().optional() }).strict(),
  z.object({ type: z.literal('outage') }).strict(),
  z.object({ type: z.literal('latency'), delay: latencySchema }).strict(),
  z
    .object({
      type: z.literal('error'),
      status: z.number().int().min(400).max(599),
      code: z.string().regex(/^[A-Z][A-Z0-9_.]*$/, 'an upper-case code such as BAD_GATEWAY'),
      message: z.string().min(1).max(500),
      retryAfterSeconds: z.number().int().min(1).max(3600).optional(),
    })
    .strict(),
  z.object({ type: z.literal('reset') }).strict(),
  z.object({ type: z.literal('concurrency'), cap: z.number().int().min(0).max(1000) }).strict(),
  z.object({ type: z.literal('quota'), limit: z.number().int().min(1), window: durationSchema.refine((ms) => ms >= 1000, 'at least 1 s') }).strict(),
]);

export type ScenarioEffect = z.infer<typeof scenarioEffectSchema>;

/** One step of a timeline: from `start` after the scenario starts, for `duration` (absent: until stopped). */
export const scenarioStepSchema = z
  .object({
    name: z.string().min(1).max(100).optional(),
    start: durationSchema.default(0),
    duration: durationSchema.refine((ms) => ms > 0, 'a duration above 0').optional(),
    match: scenarioMatchSchema.default({ probability: 1 }),
    effect: scenarioEffectSchema,
  })
  .strict();

/** A fault scenario: a named timeline of steps on the simulator clock. */
export const scenarioSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and dashes'),
    description: z.string().max(1000).default(''),
    steps: z.array(scenarioStepSchema).min(1).max(100),
  })
  .strict();

/** A scenario as written (durations may be strings). */
export type ScenarioInput = z.input<typeof scenarioSchema>;
/** A validated scenario (durations in ms, defaults applied). */
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioStep = Scenario['steps'][number];

/** `POST /__sim/scenarios`: a built-in by name, or an inline definition. */
export const startScenarioSchema = z.union([
  z.object({ name: z.string().min(1) }).strict(),
  z.object({ scenario: scenarioSchema }).strict(),
]);
