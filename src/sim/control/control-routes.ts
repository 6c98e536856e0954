import { z } from 'zod';
import {
  clockRequestSchema,
  clockSnapshotSchema,
  healthReportSchema,
  ingestDelayReportSchema,
  ingestDelayRequestSchema,
  journalClearedSchema,
  journalListingSchema,
  oracleReportSchema,
  profileReportSchema,
  profileRequestSchema,
  resetRequestSchema,
  resetResponseSchema,
} from '../../contract/control.js';
import { harSchema } from '../../contract/har.js';
import { errorBodySchema } from '../../contract/errors.js';
import { fixturesListingSchema, fixturesQuerySchema } from '../../contract/fixtures.js';
import { ADMISSION_RULES } from '../admission/rules.js';
import { parseDateInput } from '../query/engine/dates.js';
import { readListPage } from '../routing/list-page.js';
import { ok, okUnlessRefused, type DocumentedResponse, type Route } from '../routing/route.js';
import type { ControlBackend } from './control-backend.js';
import { defineControlRoute } from './control-route.js';

const OUTCOMES = ['admitted', 'scenario', ...ADMISSION_RULES] as const;

function instantParam(name: string) {
  return z
    .string()
    .transform((value, ctx) => {
      const ms = /^\d{1,16}$/.test(value) ? Number(value) : (parseDateInput(value)?.ms ?? Number.NaN);
      if (Number.isFinite(ms)) return ms;
      ctx.addIssue({ code: 'custom', message: `${name} must be epoch milliseconds or an ISO 8601 instant` });
      return z.NEVER;
    })
    .meta({ pattern: '^(?:\\d{1,16}|\\d{4}-\\d{2}-\\d{2}(?:[T ].*)?)$' })
    .optional()
    .describe(`Decisions at or ${name === 'since' ? 'after' : 'before'} this instant (epoch ms or ISO 8601)`);
}

/** The journal filters of `GET /__sim/journal` and the retry audit. */
export const journalQuerySchema = z.object({
  identity: z.string().optional().describe('apikey:<id>, user:<id> or anon:<ip>'),
  route: z.string().optional().describe('A route pattern, e.g. /v1/query'),
  outcome: z
    .enum(OUTCOMES, { error: `outcome must be one of ${OUTCOMES.join(', ')}` })
    .optional()
    .describe('admitted, scenario, or the rule that refused'),
  since: instantParam('since'),
  until: instantParam('until'),
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a positive integer')
    .meta({ pattern: '^0*[1-9]\\d*$' })
    .transform(Number)
    .refine((n) => n > 0, 'limit must be a positive integer')
    .optional()
    .describe('At most this many entries, the newest last'),
});

/**
 * A setting of the control backend on one path: GET reports it; `change` sets it from the body
 * and answers the report after the change (or the backend's refusal). Both answer `schema`.
 */
function defineSettingRoutes<Body>(spec: {
  readonly path: string;
  readonly schema: z.ZodType;
  readonly read: { readonly summary: string; readonly description: string; readonly report: (control: ControlBackend) => unknown };
  readonly change: {
    readonly method: 'PUT' | 'POST';
    readonly summary: string;
    readonly description: string;
    readonly body: z.ZodType<Body>;
    /** What else the change may answer (the body's 422 is documented by default). */
    readonly refusals?: Record<number, DocumentedResponse>;
    readonly apply: (control: ControlBackend, body: Body) => unknown;
  };
}): Route[] {
  const { path, schema, read, change } = spec;
  return [
    defineControlRoute({
      method: 'GET',
      path,
      summary: read.summary,
      responses: { 200: { description: read.description, schema } },
      handle: (ctx) => ok(read.report(ctx.control)),
    }),
    defineControlRoute<Body>({
      method: change.method,
      path,
      summary: change.summary,
      body: change.body,
      responses: { 200: { description: change.description, schema }, ...change.refusals },
      handle: (ctx, body) => okUnlessRefused(change.apply(ctx.control, body)),
    }),
  ];
}

const BAD_FILTER = { description: 'A filter is not usable (VALIDATION_ERROR), details name it', schema: errorBodySchema };

/**
 * The harness control plane under `/__sim`: not part of the simulated service, never
 * authenticated or rate limited. Meant for localhost and test processes only. Each route is a
 * thin translation of the control backend (`ctx.control`).
 */
export const controlRoutes = [
  defineControlRoute({
    method: 'GET',
    path: '/__sim/health',
    browser: true,
    summary: 'Ready check: seed, clock, and API key requests in flight.',
    responses: { 200: { description: 'Ready', schema: healthReportSchema } },
    handle: async (ctx) => ok(await ctx.control.health()),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__sim/fixtures',
    summary: 'The seeded world, with API key secrets and session tokens; a page of at most 1,000 of each list at a time (totals counts them all).',
    query: fixturesQuerySchema,
    responses: {
      200: { description: 'The world as it stands now: one page of each list', schema: fixturesListingSchema },
      400: { description: 'The page or limit is not usable (VALIDATION_ERROR), details name it', schema: errorBodySchema },
    },
    handle: (ctx) => ok(ctx.control.fixtures(readListPage(ctx.query))),
  }),
  defineControlRoute({
    method: 'POST',
    path: '/__sim/reset',
    summary: 'Back to the seeded state (optionally with another seed); restarts the clock.',
    body: resetRequestSchema,
    bodyOptional: true,
    responses: { 200: { description: 'Reset', schema: resetResponseSchema } },
    effects: 'store',
    handle: async (ctx, body) => ok(await ctx.control.reset(body.seed)),
  }),
  ...defineSettingRoutes({
    path: '/__sim/profile',
    schema: profileReportSchema,
    read: { summary: 'The profile in force (spec or live) and what each of its switches does.', description: 'The profile and its switches', report: (control) => control.profile.report() },
    change: {
      method: 'PUT',
      summary: 'Follow another profile from the next request on ({ profile: "spec" | "live" }); a reset keeps it.',
      description: 'The profile now in force',
      body: profileRequestSchema,
      apply: (control, body) => control.profile.set(body.profile),
    },
  }),
  ...defineSettingRoutes({
    path: '/__sim/ingest-delay',
    schema: ingestDelayReportSchema,
    read: {
      summary: 'The ingestion delay: how long an accepted record waits before queries see it (0: at once), and the writes held back now.',
      description: 'The delay in force',
      report: (control) => control.ingestDelay.report(),
    },
    change: {
      method: 'PUT',
      summary: 'Make records accepted from now on visible only { ms } after they are accepted, as the live pipeline lags (0: at once); a reset keeps it.',
      description: 'The delay now in force',
      body: ingestDelayRequestSchema,
      refusals: { 422: { description: 'ms is not a whole number from 0 to 86400000 (VALIDATION, details name it)', schema: errorBodySchema } },
      apply: (control, body) => control.ingestDelay.set(body.ms),
    },
  }),
  ...defineSettingRoutes({
    path: '/__sim/clock',
    schema: clockSnapshotSchema,
    read: { summary: 'The clock: mode and current instant.', description: 'The clock', report: (control) => control.clock.snapshot() },
    change: {
      method: 'POST',
      summary: 'Switch real/virtual, set the virtual instant, or advance it ({ mode, now, advanceMs }).',
      description: 'The clock after the change',
      body: clockRequestSchema,
      refusals: { 400: { description: 'The clock refused a step (it never runs backwards)', schema: errorBodySchema } },
      apply: (control, body) => control.clock.change(body),
    },
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__sim/journal',
    summary: 'Admission decisions, oldest first; filter by identity, route, outcome, since, until, limit.',
    query: journalQuerySchema,
    responses: { 200: { description: 'The decisions', schema: journalListingSchema }, 400: BAD_FILTER },
    handle: async (ctx) => ok({ info: await ctx.control.journal.info(), entries: await ctx.control.journal.list(ctx.query) }),
  }),
  defineControlRoute({
    method: 'DELETE',
    path: '/__sim/journal',
    summary: 'Clear the journal (limits keep their state).',
    responses: { 200: { description: 'Cleared', schema: journalClearedSchema } },
    effects: 'store',
    handle: async (ctx) => ok({ ok: true, info: await ctx.control.journal.clear() }),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__sim/journal.har',
    summary: "The exchanges behind the journal's entries as HAR 1.2 (the latest exchanges this process served, 100 unless --har-entries says; bodies with --har-bodies; credentials redacted); same filters as the journal.",
    query: journalQuerySchema,
    responses: { 200: { description: 'The HAR log', schema: harSchema }, 400: BAD_FILTER },
    handle: async (ctx) => ok(await ctx.control.journal.har(ctx.query), 200, { 'Content-Disposition': 'attachment; filename="analytics-sim.har"' }),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__sim/journal/oracle',
    summary: 'Replay the whole journal against the admission rules: disagreements and accuracy.',
    responses: { 200: { description: 'The verdict', schema: oracleReportSchema } },
    handle: async (ctx) => ok(await ctx.control.journal.oracle()),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__sim/journal/retry-audit',
    summary: 'Judge how clients retried 429s, 503s and other failures (wait at least Retry-After, at most 3 retries, none after a non-retryable answer); same filters as the journal.',
    query: journalQuerySchema,
    responses: { 200: { description: 'The audit' }, 400: BAD_FILTER },
    handle: async (ctx) => ok(await ctx.control.journal.retryAudit(ctx.query)),
  }),
];
