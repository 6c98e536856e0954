import { startScenarioSchema, type Scenario } from '../../contract/scenario.js';
import { conflict, resourceNotFound } from '../errors.js';
import { suggest } from '../query/suggest.js';
import { defineRoute, ok } from '../route.js';
import type { z } from 'zod';

type StartScenario = z.infer<typeof startScenarioSchema>;

/** `/__sim/scenarios`: list the built-ins and the running scenarios, start and stop them. */
export const scenarioRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sim/scenarios',
    family: 'control',
    auth: 'control',
    summary: 'Built-in scenarios, and the running ones with the state of each step.',
    handle: (ctx) =>
      ok({
        available: [...ctx.sim.catalog.values()],
        active: ctx.sim.scenarios.list(ctx.now),
      }),
  }),
  defineRoute<StartScenario, undefined, Scenario>({
    method: 'POST',
    path: '/__sim/scenarios',
    family: 'control',
    auth: 'control',
    summary: 'Start a scenario now: { "name": "<built-in>" } or { "scenario": { name, steps } }.',
    body: startScenarioSchema,
    validate(ctx, body) {
      if ('scenario' in body) return body.scenario;
      const found = ctx.sim.catalog.get(body.name);
      if (found) return found;
      const near = suggest(body.name, [...ctx.sim.catalog.keys()]);
      return { ...resourceNotFound('Scenario', body.name), ...(near ? { hint: `Did you mean '${near}'?` } : {}) };
    },
    handle(ctx, _body, _access, scenario) {
      const started = ctx.sim.scenarios.start(scenario, ctx.now);
      if (!started.ok) return conflict(`Scenario ${scenario.name} is already running`, started.reason);
      return ok({ started: ctx.sim.scenarios.list(ctx.now).find((s) => s.name === scenario.name) }, 201);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/__sim/scenarios',
    family: 'control',
    auth: 'control',
    summary: 'Stop every running scenario.',
    handle: (ctx) => ok({ stopped: ctx.sim.scenarios.stop() }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/__sim/scenarios/:name',
    family: 'control',
    auth: 'control',
    summary: 'Stop one running scenario.',
    handle(ctx) {
      const name = ctx.params.name as string;
      const stopped = ctx.sim.scenarios.stop(name);
      return stopped.length > 0 ? ok({ stopped }) : resourceNotFound('Running scenario', name);
    },
  }),
];
