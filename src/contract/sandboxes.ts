import { z } from 'zod';
import { clockSnapshotSchema, instantSchema } from './control.js';
import { worldConfigSchema } from './world.js';

/** What a sandbox id may be: 1 to 64 letters, digits, `_` or `-` (no path separator, no dot). */
export const SANDBOX_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The allowed form of a sandbox id, in words, for the refusals that name it. */
export const SANDBOX_ID_FORM = '1 to 64 letters, digits, _ or -';

/** The header that sends a request to a sandbox (the path prefix `/__sandbox/<id>` does too). */
export const SANDBOX_HEADER = 'x-sim-sandbox';

/** The path prefix of a sandbox's requests: `/__sandbox/<id>/v1/query`, `/__sandbox/<id>/__sim/clock`. */
export const SANDBOX_PATH_PREFIX = '/__sandbox/';

/** Live sandboxes a server keeps at most when not told otherwise (`--max-sandboxes`). */
export const DEFAULT_MAX_SANDBOXES = 64;
/** Upper bound of `--max-sandboxes`. */
export const MAX_SANDBOXES_CAP = 1024;
/** Seconds without a request after which a sandbox is removed (`--sandbox-idle`). */
export const DEFAULT_SANDBOX_IDLE_SECONDS = 900;
/** Upper bound of `--sandbox-idle`: a day. */
export const MAX_SANDBOX_IDLE_SECONDS = 86_400;

/** Whether `id` has the allowed form of a sandbox id ({@link SANDBOX_ID_PATTERN}); `__proto__` and the like never do. */
export function isSandboxId(id: string): boolean {
  return SANDBOX_ID_PATTERN.test(id) && id !== '__proto__';
}

/**
 * `POST /__sim/sandboxes`: every field optional. The id is checked by the route (400 naming its
 * form), so it is a plain string here; the rest default to the server's own options.
 */
export const createSandboxRequestSchema = z
  .object({
    id: z.string().max(1000).optional().describe(`The sandbox id, ${SANDBOX_ID_FORM} (default: sbx-1, sbx-2, …, the first free one).`),
    seed: z.union([z.string().min(1).max(128), z.number().int()]).optional().describe("Seed of the sandbox's world (default: the server's seed)."),
    profile: z.enum(['spec', 'live']).optional().describe("The sandbox's profile (default: the server's)."),
    clock: z.enum(['real', 'virtual']).optional().describe("The sandbox's clock mode (default: the server's; virtual when now is given)."),
    now: instantSchema.optional().describe('Start of the sandbox virtual clock, epoch ms or ISO 8601 (default: the server start instant).'),
    world: worldConfigSchema
      .optional()
      .describe("A world of the sandbox's own, as the config file's world section (createSimulator({ world })); default: the server's world."),
  })
  .strict();

/** See {@link createSandboxRequestSchema}. */
export type CreateSandboxRequest = z.infer<typeof createSandboxRequestSchema>;

/** `201` of `POST /__sim/sandboxes`. */
export const sandboxCreatedSchema = z.object({
  id: z.string(),
  /** The server's URL and `/__sandbox/<id>`: a client's base URL for everything of the sandbox. */
  baseUrl: z.string(),
  seed: z.string(),
  profile: z.enum(['spec', 'live']),
  clock: clockSnapshotSchema,
});

/** See {@link sandboxCreatedSchema}. */
export type SandboxCreated = z.infer<typeof sandboxCreatedSchema>;

/** One live sandbox in `GET /__sim/sandboxes`. */
export const sandboxSummarySchema = z.object({
  id: z.string(),
  seed: z.string(),
  profile: z.enum(['spec', 'live']),
  /** When it was created, by the server's wall clock (ISO 8601). */
  createdAt: z.string(),
  /** Milliseconds since its last request (or its creation), by the server's wall clock. */
  idleMs: z.number().int(),
  /** Requests it has answered. */
  requests: z.number().int(),
});

/** `GET /__sim/sandboxes`. */
export const sandboxListingSchema = z.object({
  sandboxes: z.array(sandboxSummarySchema),
  /** The cap on live sandboxes (`--max-sandboxes`). */
  max: z.number().int(),
  /** Seconds without a request after which a sandbox is removed (`--sandbox-idle`; 0: never). */
  idleSeconds: z.number(),
});

/** See {@link sandboxListingSchema}. */
export type SandboxListing = z.infer<typeof sandboxListingSchema>;
