import type { z } from 'zod';
import type { ErrorDetail } from '../../contract/errors.js';
import type { Scope } from '../../contract/scopes.js';
import type { Principal } from '../auth/principal.js';
import type { EndpointLimitName, WindowRule } from '../admission/rules.js';
import type { SimError } from '../errors.js';
import type { SimRequest } from '../messages.js';
import type { SimState } from '../state.js';
import type { Profile } from '../profile.js';

/** A successful answer of a route: the body is serialized as JSON unless `text` is given. */
export interface Reply {
  readonly reply: true;
  readonly status: number;
  readonly body: unknown;
  /** A non-JSON body (documents), sent with `contentType`. */
  readonly text?: string;
  /** A binary body (an image), sent with `contentType`; `text` is then ''. */
  readonly bytes?: Uint8Array;
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

/** A 204 with no body. */
export const NO_CONTENT: Reply = { reply: true, status: 204, body: undefined, text: '' };

/** Tells a refusal from a reply or a step's value. */
export function isError(value: Reply | SimError | unknown): value is SimError {
  return typeof value === 'object' && value !== null && 'code' in value && 'status' in value && !('reply' in value);
}

/**
 * Who may call a route; the pipeline enforces it before the route's own steps run.
 *
 * - `public`: anybody, no credential read.
 * - `key`: an API key holding `scope` (or every scope `scopesFor` names for this body), or a
 *   dashboard session, which acts with every scope of its organizations. No credential → 401
 *   AUTH_REQUIRED; a missing scope → 403 FORBIDDEN. `publicWhen` lets anybody through for a
 *   request that reads only public data (the public websites of SPEC 4.3).
 * - `ingest`: ingestion. An API key must hold `scope` (403 otherwise); without a usable key the
 *   route identifies the sender itself (a website named in the request).
 * - `control`: the `/__sim` harness; only the control plane's own chain serves these.
 */
export type RouteAccess<Body = unknown, Query = LooseQuery> =
  | { readonly kind: 'public' }
  | { readonly kind: 'control' }
  | {
      readonly kind: 'key';
      readonly scope: Scope;
      readonly scopesFor?: (body: Body) => readonly Scope[];
      readonly publicWhen?: (ctx: RouteContext<Query>, body: Body) => boolean;
    }
  | { readonly kind: 'ingest'; readonly scope: Scope };

/** Query-string values as a route receives them when it declares no schema of its own (none: such a route reads no query string). */
export type LooseQuery = Readonly<Record<string, string | undefined>>;

/**
 * What a route's steps receive: the request without its query string, the validated query, the
 * state, the profile and the warning sink; never the simulator. A group of routes that needs a
 * harness service (the control plane's backend, the route list) declares it with
 * {@link defineRouteGroup}'s `services`, and only its routes see it.
 */
export interface RouteContext<Query = LooseQuery> {
  /** The request; its query string is read only through `query`. */
  readonly request: Omit<SimRequest, 'query'>;
  /** The query string, validated against the route's `query` schema (fields it does not name are dropped). */
  readonly query: Query;
  readonly requestId: string;
  readonly principal: Principal;
  readonly params: Readonly<Record<string, string>>;
  /** The clock instant the request was admitted at. */
  readonly now: number;
  /** The profile the answer follows (`spec` or `live`). */
  readonly profile: Profile;
  readonly state: SimState;
  /** Lets other work run between the pieces of a long answer (an adapter's `setImmediate`, or a no-op). */
  yieldToEventLoop(): Promise<void>;
  /**
   * Tells the caller that part of the request was ignored or reinterpreted (a `Warning` header
   * and a journal entry; a 400 under `strict`). `field` names what, `message` says what was done.
   */
  warn(warning: ErrorDetail): void;
}

/** A documented answer of a route: what it means and the body's schema. */
export interface DocumentedResponse {
  readonly description: string;
  readonly schema?: z.ZodType;
  /** The media type of a body that is not JSON (documented as a string of that type). */
  readonly contentType?: string;
}

/**
 * One route, declared. The pipeline matches it, enforces `access`, decodes `body` with its
 * schema (400 PARSE, 422 VALIDATION or `bodyError`), validates `query` (400 VALIDATION_ERROR
 * naming the parameter), then runs `authorize` (resource reach: 403/404), `validate` (400) and
 * `handle`, each of which may refuse with a {@link SimError} value. Handlers never check a scope
 * and never read the raw query string.
 */
export interface RouteSpec<Body = unknown, Access = unknown, Input = unknown, Query = LooseQuery, Services extends object = NoServices> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  readonly path: string;
  /** Groups routes in the docs and the OpenAPI document (tags). */
  readonly family: 'query' | 'ingest' | 'manage' | 'discovery' | 'control';
  readonly summary: string;
  readonly access: RouteAccess<Body, Query>;
  /**
   * The query string: a flat object of string fields. Each field is validated on its own, so a
   * bad `page` never hides a good `organization_id` from `authorize`; failures answer 400 after
   * access and authorization, as the service orders them.
   */
  readonly query?: z.ZodType<Query> & Pick<z.ZodObject, 'shape'>;
  /**
   * The route reads its whole query string: parameters `query` does not name are kept, as sent
   * (strings), instead of being dropped with a warning (the pixel's flattened event fields).
   */
  readonly openQuery?: boolean;
  /** Documented answers by status. */
  readonly responses?: Readonly<Record<number, DocumentedResponse>>;
  /** The per-endpoint limit (SPEC 8.1) that applies, checked after the body is decoded. */
  readonly limit?: EndpointLimitName;
  readonly body?: z.ZodType<Body>;
  /**
   * Hands the route the body's exact text instead of decoded JSON: `Body` is then the string
   * as it arrived ('' when there is none), for routes that verify a signature over the raw bytes
   * (the payment webhooks). The pipeline checks only its size (413 over 1 MB): no media type,
   * no JSON parse, no schema; the route parses it itself. `schema` documents what the text
   * holds (the OpenAPI request body). Not combined with `body`.
   */
  readonly rawBody?: { readonly schema: z.ZodType; readonly description: string };
  /** Whether a missing body is acceptable (bodies are otherwise required when a schema is set). */
  readonly bodyOptional?: boolean;
  /**
   * A smaller body limit than the simulator's 1 MB, in bytes: the request's `Content-Length`
   * when it sends one, else the body's UTF-8 bytes. Checked with the 1 MB limit, before the
   * body is parsed (413 PAYLOAD_TOO_LARGE, which `shapeRefusal` may reword), whatever it holds.
   */
  readonly maxBodyBytes?: number;
  /** The refusal for a body that does not match `body` (default 422 VALIDATION). */
  readonly bodyError?: (details: readonly ErrorDetail[]) => SimError;
  /**
   * Reshapes every refusal of this route, the pipeline's included (a malformed body, a missing
   * scope), into the route's own error body, for the profile in force (`/track` under live).
   */
  readonly shapeRefusal?: (error: SimError, profile: Profile) => SimError;
  /**
   * What the handler changes. `state`: the simulator's state (tracked events, records, keys,
   * the clock, scenarios): with a shared store the request is logged and every process applies
   * it in log order. `none`: nothing (a query). `store`: only what the shared store holds, or
   * the route logs its own command (reset, clearing the journal): it runs once, where it
   * arrives. Default: `none` for GET and HEAD, `state` for every other method.
   */
  readonly effects?: 'state' | 'none' | 'store';
  /** May a browser page on an allowed origin read this control route (CORS)? Default false. */
  readonly browser?: boolean;
  /** Resource reach: what the request acts on, once access is granted. */
  authorize?(ctx: RouteContext<Query> & Services, body: Body): Access | SimError;
  /**
   * A sliding window that depends on who `authorize` found the caller to be (SPEC 8.3: per
   * API key, or per website and client IP); checked after `authorize`, before `validate`.
   * Null when no window applies to this request.
   */
  windowRule?(access: Access): WindowRule | null;
  validate?(ctx: RouteContext<Query> & Services, body: Body, access: Access): Input | SimError;
  handle(ctx: RouteContext<Query> & Services, body: Body, access: Access, input: Input): Reply | SimError | Promise<Reply | SimError>;
}

/** No harness service: what most routes get besides their {@link RouteContext}. */
export type NoServices = Record<never, never>;

/**
 * The harness services a group of routes declares it uses (see {@link defineRouteGroup}): a
 * marker with no value at run time; the pipeline hands every route's context the services its
 * group names.
 */
export interface ServicesOf<Services extends object> {
  readonly services?: Services;
}

/** Declares the services a group of routes uses: `defineRouteGroup(defaults, uses<{ control: … }>())`. */
export function uses<Services extends object>(): ServicesOf<Services> {
  return {};
}

/** A route with its types erased, as the tables hold it. */
export type Route = RouteSpec<any, any, any, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Declares a route. The generic parameters flow from `body` and `query` to `authorize`,
 * `validate` and `handle`; without explicit type arguments they are inferred from the schemas.
 */
export function defineRoute<Body = undefined, Access = undefined, Input = undefined, Query = LooseQuery>(
  spec: RouteSpec<Body, Access, Input, Query>,
): Route {
  return spec;
}

/** The fields a group of routes may share: its family, and optionally its access and query schema. */
export type RouteDefaults = Pick<Route, 'family'> & Partial<Pick<Route, 'access' | 'query'>>;

/** A route of a group: the group's fields may be left out, and a field given replaces the group's. */
export type GroupRouteSpec<D extends RouteDefaults, Body, Access, Input, Query, Services extends object = NoServices> = Omit<RouteSpec<Body, Access, Input, Query, Services>, keyof D> &
  Partial<Pick<RouteSpec<Body, Access, Input, Query, Services>, keyof D & keyof RouteSpec>>;

/**
 * A {@link defineRoute} for a group of routes that share their family (and access or query
 * schema): each entry states only what is its own. Typing is as `defineRoute`'s, except that a
 * query schema taken from the group types `ctx.query` loosely. `services` names the harness
 * services the group's routes use beyond their context ({@link uses}); no other route sees them.
 */
export function defineRouteGroup<const D extends RouteDefaults, Services extends object = NoServices>(defaults: D, services?: ServicesOf<Services>) {
  void services;
  return <Body = undefined, Access = undefined, Input = undefined, Query = LooseQuery>(spec: GroupRouteSpec<D, Body, Access, Input, Query, Services>): Route =>
    ({ ...defaults, ...spec }) as unknown as Route; // the group fills the fields that spec leaves out
}

/** A step's value as a route's answer: a refusal stays a refusal, anything else is a JSON reply. */
export function okUnlessRefused(value: unknown, status = 200): Reply | SimError {
  return isError(value) ? value : ok(value, status);
}

/** Whether a route changes the simulator's state (see {@link RouteSpec.effects}). */
export function changesState(route: Route): boolean {
  return route.effects === undefined ? route.method !== 'GET' && route.method !== 'HEAD' : route.effects === 'state';
}

/** The scope a route documents for API keys, or null for public, control and session-free routes. */
export function documentedScope(route: Route): Scope | null {
  return route.access.kind === 'key' || route.access.kind === 'ingest' ? route.access.scope : null;
}

