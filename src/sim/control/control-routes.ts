import { clockRequestSchema, resetRequestSchema, type ClockRequest, type ResetRequest } from '../../contract/control.js';
import type { ErrorDetail } from '../../contract/errors.js';
import { replayJournal } from '../admission/oracle.js';
import { ADMISSION_RULES } from '../admission/rules.js';
import { auditRetries } from '../journal/retry-audit.js';
import { validationError } from '../errors.js';
import { parseDateInput } from '../query/dates.js';
import type { JournalQuery } from '../journal/journal.js';
import type { RouteContext } from '../route.js';
import { defineRoute, ok } from '../route.js';
import { listFixtures } from './fixtures-listing.js';

/**
 * The harness control plane under `/__sim`: not part of the simulated service, never
 * authenticated or rate limited. Meant for localhost and test processes only.
 */
export const controlRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sim/health',
    family: 'control',
    auth: 'control',
    summary: 'Ready check: seed, clock, and API key requests in flight.',
    handle: (ctx) => ok({ ok: true, seed: ctx.sim.seed, clock: ctx.sim.clock.snapshot(), inFlight: ctx.sim.admission.gate.total() }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sim/fixtures',
    family: 'control',
    auth: 'control',
    summary: 'The seeded world, with API key secrets and session tokens.',
    handle: (ctx) => ok(listFixtures(ctx.state)),
  }),
  defineRoute<ResetRequest>({
    method: 'POST',
    path: '/__sim/reset',
    family: 'control',
    auth: 'control',
    summary: 'Back to the seeded state (optionally with another seed); restarts the clock.',
    body: resetRequestSchema,
    bodyOptional: true,
    async handle(ctx, body) {
      await ctx.sim.reset(body.seed === undefined ? undefined : String(body.seed));
      return ok({ ok: true, seed: ctx.sim.seed, clock: ctx.sim.clock.snapshot() });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sim/clock',
    family: 'control',
    auth: 'control',
    summary: 'The clock: mode and current instant.',
    handle: (ctx) => ok(ctx.sim.clock.snapshot()),
  }),
  defineRoute<ClockRequest>({
    method: 'POST',
    path: '/__sim/clock',
    family: 'control',
    auth: 'control',
    summary: 'Switch real/virtual, set the virtual instant, or advance it ({ mode, now, advanceMs }).',
    body: clockRequestSchema,
    handle(ctx, body) {
      const { clock } = ctx.sim;
      const steps = [
        body.mode === 'real' ? () => clock.useReal() : undefined,
        body.mode === 'virtual' ? () => clock.useVirtual(body.now === undefined ? undefined : toMs(body.now)) : undefined,
        body.now !== undefined && body.mode !== 'virtual' ? () => clock.set(toMs(body.now as number | string)) : undefined,
        body.advanceMs !== undefined ? () => clock.advance(body.advanceMs as number) : undefined,
      ];
      for (const step of steps) {
        if (!step) continue;
        const change = step();
        if (!change.ok) return validationError([{ field: 'body', message: change.reason }]);
      }
      return ok(clock.snapshot());
    },
  }),
  defineRoute<undefined, undefined, JournalQuery>({
    method: 'GET',
    path: '/__sim/journal',
    family: 'control',
    auth: 'control',
    summary: 'Admission decisions, oldest first; filter by identity, route, outcome, since, until, limit.',
    validate: journalQuery,
    handle: (ctx, _body, _access, query) =>
      ok({ info: ctx.sim.admission.journal.info(), entries: ctx.sim.admission.journal.list(query) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/__sim/journal',
    family: 'control',
    auth: 'control',
    summary: 'Clear the journal (limits keep their state).',
    handle(ctx) {
      ctx.sim.admission.journal.clear(ctx.now);
      return ok({ ok: true, info: ctx.sim.admission.journal.info() });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sim/journal/oracle',
    family: 'control',
    auth: 'control',
    summary: 'Replay the whole journal against the admission rules: disagreements and accuracy.',
    handle(ctx) {
      const { journal } = ctx.sim.admission;
      return ok(replayJournal(journal.list(), journal.info()));
    },
  }),
  defineRoute<undefined, undefined, JournalQuery>({
    method: 'GET',
    path: '/__sim/journal/retry-audit',
    family: 'control',
    auth: 'control',
    summary: 'Judge how clients retried 429s, 503s and other failures (SPEC 8.4 rule 4); same filters as the journal.',
    validate: journalQuery,
    handle: (ctx, _body, _access, query) => ok(auditRetries(ctx.sim.admission.journal.list(query))),
  }),
];

const OUTCOMES = ['admitted', 'scenario', ...ADMISSION_RULES];

/** Reads the journal filters from the query string; bad values are a 400 naming the parameter. */
function journalQuery(ctx: RouteContext) {
  const q = ctx.request.query;
  const details: ErrorDetail[] = [];
  const query: { -readonly [K in keyof JournalQuery]: JournalQuery[K] } = {};
  if (q.identity !== undefined) query.identity = q.identity;
  if (q.route !== undefined) query.route = q.route;
  if (q.outcome !== undefined) {
    if (OUTCOMES.includes(q.outcome)) query.outcome = q.outcome;
    else details.push({ field: 'outcome', message: `outcome must be one of ${OUTCOMES.join(', ')}` });
  }
  for (const name of ['since', 'until'] as const) {
    const value = q[name];
    if (value === undefined) continue;
    const ms = /^\d{1,16}$/.test(value) ? Number(value) : (parseDateInput(value)?.ms ?? Number.NaN);
    if (Number.isFinite(ms)) query[name] = ms;
    else details.push({ field: name, message: `${name} must be epoch milliseconds or an ISO 8601 instant` });
  }
  if (q.limit !== undefined) {
    if (/^\d+$/.test(q.limit) && Number(q.limit) > 0) query.limit = Number(q.limit);
    else details.push({ field: 'limit', message: 'limit must be a positive integer' });
  }
  return details.length > 0 ? validationError(details) : query;
}

function toMs(instant: number | string): number {
  return typeof instant === 'number' ? instant : (parseDateInput(instant)?.ms ?? Number.NaN);
}
