import type { z } from 'zod';
import type { Principal } from './auth/principal.js';
import type { SimError } from './errors.js';
import type { SimRequest } from './messages.js';
import type { SimClock } from './clock.js';
import type { SimState } from './state.js';
import type { Admission } from './admission/admission-stages.js';
import type { EndpointLimitName, WindowRule } from './admission/rules.js';
import type { ErrorDetail } from '../contract/errors.js';
import type { ScenarioRunner } from './faults/scenario-runner.js';
import type { Scenario } from '../contract/scenario.js';
import type { OriginPolicy } from './cors/origins.js';

/** A successful answer of a route: the body is serialized as JSON unless `text` is given. */
export interface Reply {
  readonly reply: true;
  readonly status: number;
  readonly body: unknown;
  /** A non-JSON body (documents), sent with `contentType`. */
  readonly text?: string;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A JSON reply. */
export function ok(body: unknown, status = 200, headers?: Record<string, string>): Reply {
  return headers ? { reply: true, status, body, headers } : { reply: true, status, body };
}

/** A reply whose JSON body is already serialized (hot paths that splice cached text). */
export function jsonText(text: string, status = 200): Reply {
  return { reply: true, status, body: undefined, text, contentType: 'application/json; charset=utf-8' };
}

/** Tells a refusal from a reply. */
export function isError(value: Reply | SimError | unknown): value is SimError {
  return typeof value === 'object' && value !== null && 'code' in value && 'status' in value && !('reply' in value);
}

/** The simulator as routes see it: state plus the harness operations. */
export interface SimulatorCore {
  readonly seed: string;
  readonly clock: SimClock;
  readonly admission: Admission;
  readonly scenarios: ScenarioRunner;
  /** Built-in scenarios by name, for the control plane. */
  readonly catalog: ReadonlyMap<string, Scenario>;
  /** Whether `/__sim` requires a loopback Host header (a server bound to loopback). */
  readonly guardHost: boolean;
  /** False when the SPEC 8 limits are switched off (end-to-end and benchmark runs). */
  readonly enforceLimits: boolean;
  /** The route table, for the generated OpenAPI document. */
  readonly routes: readonly Route[];
  /** Which page origins may call the API from a browser (CORS, and the session cookie of SPEC 5.5). */
  readonly origins: OriginPolicy;
  state(): SimState;
  reset(seed?: string): Promise<void>;
}

/** What a route's steps receive. */
export interface RouteContext {
  readonly request: SimRequest;
  readonly requestId: string;
  readonly principal: Principal;
  readonly params: Readonly<Record<string, string>>;
  /** The clock instant the request was admitted at. */
  readonly now: number;
  readonly sim: SimulatorCore;
  readonly state: SimState;
}

/**
 * One route. The pipeline decodes `body` with its schema (400 PARSE, 422 VALIDATION), then runs
 * `authorize` (401/403), `validate` (400) and `handle` in that order; each may refuse with a
 * {@link SimError} value. `family` groups routes for documentation and limits.
 */
export interface RouteSpec<Body = unknown, Access = unknown, Input = unknown> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  readonly path: string;
  /** Groups routes in the docs and the OpenAPI document (tags). */
  readonly family: 'query' | 'ingest' | 'manage' | 'discovery' | 'control';
  readonly summary: string;
  /**
   * How callers authenticate, for the docs: `public` (nobody), `key` (API key or dashboard
   * session), `key-or-website` (ingestion), `control` (the harness, unauthenticated).
   */
  readonly auth?: 'public' | 'key' | 'key-or-website' | 'control';
  /** The scope an API key needs, for the docs (the route's own checks enforce it). */
  readonly scope?: string;
  /** Query-string parameters, for the docs and OpenAPI (values arrive as strings). */
  readonly query?: z.ZodObject;
  /** Documented answers by status: what it means and the body's schema. */
  readonly responses?: Readonly<Record<number, { readonly description: string; readonly schema?: z.ZodType }>>;
  /** The per-endpoint limit (SPEC 8.1) that applies, checked before authorization. */
  readonly limit?: EndpointLimitName;
  readonly body?: z.ZodType<Body>;
  /** Whether a missing body is acceptable (bodies are otherwise required when a schema is set). */
  readonly bodyOptional?: boolean;
  /**
   * The refusal for a body that does not match `body` (default 422 VALIDATION); ingestion
   * answers 400 INVALID_EVENT_SCHEMA, as the service does.
   */
  readonly bodyError?: (details: readonly ErrorDetail[]) => SimError;
  authorize?(ctx: RouteContext, body: Body): Access | SimError;
  /**
   * A sliding window that depends on who `authorize` found the caller to be (SPEC 8.3: per
   * API key, or per website and client IP); checked after `authorize`, before `validate`,
   * and journaled like every window. Null when no window applies to this request.
   */
  windowRule?(access: Access): WindowRule | null;
  validate?(ctx: RouteContext, body: Body, access: Access): Input | SimError;
  handle(ctx: RouteContext, body: Body, access: Access, input: Input): Reply | SimError | Promise<Reply | SimError>;
}

/** A route with its types erased, as the table holds it. */
export type Route = RouteSpec<any, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Declares a route; the generic parameters flow from `body` to `authorize`, `validate` and `handle`. */
export function defineRoute<Body = undefined, Access = undefined, Input = undefined>(
  spec: RouteSpec<Body, Access, Input>,
): Route {
  return spec;
}
