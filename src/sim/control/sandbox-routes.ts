import { errorBodySchema } from '../../contract/errors.js';
import {
  createSandboxRequestSchema,
  isSandboxId,
  SANDBOX_ID_FORM,
  sandboxCreatedSchema,
  sandboxListingSchema,
  type CreateSandboxRequest,
} from '../../contract/sandboxes.js';
import { requestBaseUrl } from '../discovery/base-url.js';
import { notFound, validationError, type SimError } from '../errors.js';
import { isError, NO_CONTENT, ok } from '../routing/route.js';
import { truncate } from '../text.js';
import type { SandboxHost } from './sandbox-host.js';
import { defineControlRoute } from './control-route.js';
import type { ControlBackend } from './control-backend.js';

/** The host, or the 404 that says where sandboxes are served. */
function hostOf(control: ControlBackend): SandboxHost | SimError {
  return (
    control.sandboxes.host() ??
    notFound(
      { kind: 'Sandbox registry', id: 'sandboxes' },
      {
        hint: "Sandboxes are made by the HTTP server (analytics-sim serve, startServer) on its own /__sim/sandboxes, not inside a sandbox nor in process (MSW, sim.fetch: create another simulator instead).",
      },
    )
  );
}

/** The 400 for an id that does not have the allowed form, naming the form. */
export function invalidSandboxId(id: string): SimError {
  return validationError([{ field: 'id', message: `A sandbox id is ${SANDBOX_ID_FORM} (got '${truncate(id, 80)}')` }]);
}

const NO_HOST = { description: 'No sandbox registry here: in process (MSW, sim.fetch), or inside a sandbox (NOT_FOUND)', schema: errorBodySchema };

/**
 * `/__sim/sandboxes`: isolated simulators on the same server, each with its own seed, clock,
 * journal, limits, scenarios, keys and ingested data, reached by the header `x-sim-sandbox`
 * or the path prefix `/__sandbox/<id>`. The registry is the HTTP adapter's (see
 * {@link SandboxHost}); these routes run where they arrive (a registry is per process).
 */
export const sandboxRoutes = [
  defineControlRoute({
    method: 'GET',
    path: '/__sim/sandboxes',
    summary: 'The live sandboxes (id, seed, profile, createdAt, idleMs, requests), the cap and the idle timeout.',
    responses: { 200: { description: 'The live sandboxes, the oldest first', schema: sandboxListingSchema }, 404: NO_HOST },
    async handle(ctx) {
      const host = hostOf(ctx.control);
      return isError(host) ? host : ok(await host.list());
    },
  }),
  defineControlRoute<CreateSandboxRequest, undefined, CreateSandboxRequest>({
    method: 'POST',
    path: '/__sim/sandboxes',
    summary:
      'Create a sandbox: an isolated simulator on this server, reached at baseUrl (/__sandbox/<id>/…) or with the header x-sim-sandbox: <id>. Optional { id, seed, profile, clock, now, world }; the rest as the server has it.',
    body: createSandboxRequestSchema,
    bodyOptional: true,
    effects: 'none',
    responses: {
      201: { description: 'Created', schema: sandboxCreatedSchema },
      400: { description: `An id that is not ${SANDBOX_ID_FORM}, clock real with now, or a world whose parts do not fit together (VALIDATION_ERROR)`, schema: errorBodySchema },
      404: NO_HOST,
      409: { description: 'A sandbox of this id is live (CONFLICT)', schema: errorBodySchema },
      429: { description: 'As many sandboxes are live as the cap allows (RATE_LIMITED): delete one, or raise --max-sandboxes', schema: errorBodySchema },
    },
    validate(_ctx, body) {
      const request: CreateSandboxRequest = body ?? {};
      if (request.id !== undefined && !isSandboxId(request.id)) return invalidSandboxId(request.id);
      if (request.clock === 'real' && request.now !== undefined) {
        return validationError([{ field: 'now', message: 'now sets the start of a virtual clock; drop clock "real" (or now)' }]);
      }
      return request;
    },
    async handle(ctx, _body, _access, request) {
      const host = hostOf(ctx.control);
      if (isError(host)) return host;
      const created = await host.create(request, requestBaseUrl({ headers: ctx.request.headers }));
      return isError(created) ? created : ok(created, 201);
    },
  }),
  defineControlRoute({
    method: 'DELETE',
    path: '/__sim/sandboxes/:id',
    summary: 'Remove a sandbox: its later requests get 404.',
    effects: 'none',
    responses: {
      204: { description: 'Removed' },
      400: { description: `An id that is not ${SANDBOX_ID_FORM} (VALIDATION_ERROR)`, schema: errorBodySchema },
      404: { description: 'No live sandbox has this id, or no sandbox registry here (NOT_FOUND)', schema: errorBodySchema },
    },
    async handle(ctx) {
      const id = ctx.params.id as string;
      if (!isSandboxId(id)) return invalidSandboxId(id);
      const host = hostOf(ctx.control);
      if (isError(host)) return host;
      const removed = await host.remove(id);
      return isError(removed) ? removed : NO_CONTENT;
    },
  }),
];
