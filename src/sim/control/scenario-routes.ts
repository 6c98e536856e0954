import { z } from 'zod';
import { scenarioSchema, startScenarioSchema } from '../../contract/scenario.js';
import { errorBodySchema } from '../../contract/errors.js';
import { notFound } from '../errors.js';
import { isError, ok } from '../routing/route.js';
import { defineControlRoute } from './control-route.js';

/** `/__sim/scenarios`: list the built-ins and the running scenarios, start and stop them. */
export const scenarioRoutes = [
  defineControlRoute({
    method: 'GET',
    path: '/__sim/scenarios',
    summary: 'Built-in scenarios, and the running ones with the state of each step.',
    responses: { 200: { description: 'Available and running scenarios', schema: z.object({ available: z.array(scenarioSchema), active: z.array(z.looseObject({ name: z.string() })) }) } },
    handle: (ctx) => ok({ available: ctx.control.scenarios.available(), active: ctx.control.scenarios.list() }),
  }),
  defineControlRoute({
    method: 'POST',
    path: '/__sim/scenarios',
    summary: 'Start a scenario now: { "name": "<built-in>" } or { "scenario": { name, steps } }.',
    body: startScenarioSchema,
    responses: {
      201: { description: 'Started', schema: z.object({ started: z.looseObject({ name: z.string() }) }) },
      404: { description: 'No built-in scenario has this name (NOT_FOUND), with a did-you-mean', schema: errorBodySchema },
      409: { description: 'A scenario of this name is running (CONFLICT)', schema: errorBodySchema },
    },
    validate: (ctx, body) => ('scenario' in body ? body.scenario : ctx.control.scenarios.find(body.name)),
    handle(ctx, _body, _access, scenario) {
      const started = ctx.control.scenarios.start(scenario);
      return isError(started) ? started : ok({ started }, 201);
    },
  }),
  defineControlRoute({
    method: 'DELETE',
    path: '/__sim/scenarios',
    summary: 'Stop every running scenario.',
    responses: { 200: { description: 'The names stopped', schema: z.object({ stopped: z.array(z.string()) }) } },
    handle: (ctx) => ok({ stopped: ctx.control.scenarios.stop() }),
  }),
  defineControlRoute({
    method: 'DELETE',
    path: '/__sim/scenarios/:name',
    summary: 'Stop one running scenario.',
    responses: {
      200: { description: 'Stopped', schema: z.object({ stopped: z.array(z.string()) }) },
      404: { description: 'No scenario of this name is running (NOT_FOUND)', schema: errorBodySchema },
    },
    handle(ctx) {
      const name = ctx.params.name as string;
      const stopped = ctx.control.scenarios.stop(name);
      return stopped.length > 0 ? ok({ stopped }) : notFound({ kind: 'Running scenario', id: name });
    },
  }),
];
