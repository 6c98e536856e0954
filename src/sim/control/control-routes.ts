import { clockRequestSchema, resetRequestSchema, type ClockRequest, type ResetRequest } from '../../contract/control.js';
import { validationError } from '../errors.js';
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
    summary: 'Ready check: seed and clock.',
    handle: (ctx) => ok({ ok: true, seed: ctx.sim.seed, clock: ctx.sim.clock.snapshot() }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sim/fixtures',
    family: 'control',
    summary: 'The seeded world, with API key secrets and session tokens.',
    handle: (ctx) => ok(listFixtures(ctx.state)),
  }),
  defineRoute<ResetRequest>({
    method: 'POST',
    path: '/__sim/reset',
    family: 'control',
    summary: 'Back to the seeded state (optionally with another seed); restarts the clock.',
    body: resetRequestSchema,
    bodyOptional: true,
    handle(ctx, body) {
      ctx.sim.reset(body.seed === undefined ? undefined : String(body.seed));
      return ok({ ok: true, seed: ctx.sim.seed, clock: ctx.sim.clock.snapshot() });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sim/clock',
    family: 'control',
    summary: 'The clock: mode and current instant.',
    handle: (ctx) => ok(ctx.sim.clock.snapshot()),
  }),
  defineRoute<ClockRequest>({
    method: 'POST',
    path: '/__sim/clock',
    family: 'control',
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
];

function toMs(instant: number | string): number {
  return typeof instant === 'number' ? instant : Date.parse(instant);
}
