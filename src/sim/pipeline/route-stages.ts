import type { z } from 'zod';
import type { ErrorDetail } from '../../contract/errors.js';
import { hasScope, unauthenticated } from '../auth/access.js';
import type { Principal } from '../auth/principal.js';
import { issueDetails } from '../decode-body.js';
import {
  forbidden,
  methodNotAllowed,
  parseError,
  payloadTooLarge,
  notFound,
  schemaValidation,
  unsupportedMediaType,
  validationError,
  type SimError,
} from '../errors.js';
import { MAX_BODY_BYTES } from '../messages.js';
import { suggest, truncate, utf8ByteLength } from '../text.js';
import { findUnknownFields } from './unknown-fields.js';
import { rememberBody, rememberedBody } from './decoded-bodies.js';
import { findOversizedArray } from './array-caps.js';
import { measureJson } from './measure-json.js';
import { REQUEST_LIMITS } from '../../contract/request-limits.js';
import { changesState, isError, type LooseQuery, type Route, type RouteContext } from '../routing/route.js';
import { CONTINUE, next, respond, type Exchange, type HarnessServices, type Stage } from './exchange.js';

/** The matched route; stages after {@link answerUnmatched} may rely on it. */
function routeOf(x: Exchange): Route {
  if (x.match.kind !== 'found') throw new Error('route stage before the route was matched');
  return x.match.route;
}

/** The query of a route that declares no query string: it reads none. */
const NO_QUERY: LooseQuery = Object.freeze({});

/**
 * What a route's steps receive, built from the exchange once, when the first of them runs: by
 * then authentication and the query string are settled, and nothing a context holds changes.
 */
export function contextOf(x: Exchange): RouteContext<LooseQuery> & HarnessServices {
  return (x.context ??= {
    request: x.request,
    query: (x.query ?? NO_QUERY) as LooseQuery,
    requestId: x.requestId,
    principal: x.principal as Principal,
    params: x.match.kind === 'found' ? x.match.params : {},
    now: x.now,
    profile: x.sim.profile,
    state: x.state,
    yieldToEventLoop: x.sim.yieldToEventLoop,
    control: x.sim.control,
    routes: x.sim.routes,
    warn: (warning) => {
      x.warnings.push(warning);
    },
  });
}

/** 404 for a path no route serves, 405 (with Allow) for a path served with other methods. */
export const answerUnmatched: Stage = (x) => {
  const { match } = x;
  if (match.kind === 'not-found') return respond(notFound({ route: { method: x.request.method, path: x.request.path } }));
  if (match.kind === 'method-not-allowed') return respond(methodNotAllowed(match.allowed));
  return CONTINUE;
};

/**
 * Bytes of a string in UTF-8, for the body limit when the adapter did not measure it (in-process
 * calls). Only long strings are counted: a string of n characters has n to 3n bytes.
 */
function utf8Length(text: string): number {
  if (text.length * 3 <= MAX_BODY_BYTES) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const FORM_TYPES = /^(multipart\/|application\/x-www-form-urlencoded)/i;

const DECLARED_LENGTH = /^\s*\d{1,15}\s*$/;

/**
 * What refuses a body before anything reads it: 413 over the limit ({@link overBodyLimit}),
 * then, unless the route takes its raw text, 415 for a form. Null when neither does.
 */
function refuseUnread(route: Route, request: Exchange['request']): SimError | null {
  const limit = overBodyLimit(route, request);
  if (limit !== null) return payloadTooLarge(limit);
  if (route.rawBody) return null;
  const contentType = request.headers['content-type'];
  return contentType && FORM_TYPES.test(contentType) ? unsupportedMediaType(contentType) : null;
}

/**
 * Whether the body is over the limit the route declares (`maxBodyBytes`, else 1 MB), before
 * anything reads it: the adapter's verdict, a route limit's `Content-Length` when one was sent
 * (else the body's bytes), and the 1 MB limit over the body's bytes.
 */
function overBodyLimit(route: Route, request: Exchange['request']): number | null {
  if (request.bodyTooLarge || utf8Length(request.body ?? '') > MAX_BODY_BYTES) return MAX_BODY_BYTES;
  const limit = route.maxBodyBytes;
  if (limit === undefined) return null;
  const declared = request.headers['content-length'];
  const bytes = declared !== undefined && DECLARED_LENGTH.test(declared) ? Number(declared) : utf8ByteLength(request.body ?? '', limit);
  return bytes > limit ? limit : null;
}

/**
 * Hands a `rawBody` route its body's text as it arrived (413 over 1 MB or the route's
 * `maxBodyBytes`, nothing else). Decodes the body of a route that declares one: 413 over the
 * same limits (before anything parses it), 415 for form bodies, 400 PARSE
 * for malformed JSON, 400 VALIDATION_ERROR for JSON nested too deep or an array over its cap
 * (`REQUEST_LIMITS`, both checked before the work they would cost), then
 * the route's schema (422 VALIDATION, or the route's own `bodyError` for either refusal).
 */
export const decodeBody: Stage = (x) => {
  const route = routeOf(x);
  if (!route.rawBody && !route.body) return CONTINUE;
  const refusal = refuseUnread(route, x.request);
  if (refusal !== null) return respond(refusal);
  // The exact text, for a signature over the raw bytes: only the size is the pipeline's business.
  if (route.rawBody || !route.body) return next({ body: x.request.body ?? '' });
  const raw = x.request.body ?? '';
  const remembered = rememberedBody(route.body, raw);
  if (remembered) {
    for (const unknown of remembered.unknownFields) x.warnings.push(unknown);
    return next({ body: remembered.data });
  }
  let value: unknown;
  if (raw.trim().length === 0) {
    value = route.bodyOptional ? {} : undefined;
  } else {
    const shape = measureJson(raw, REQUEST_LIMITS.jsonDepth);
    const message =
      shape.depth > REQUEST_LIMITS.jsonDepth
        ? `At most ${REQUEST_LIMITS.jsonDepth} levels of nested arrays and objects are accepted; got ${shape.depth}`
        : shape.widest > REQUEST_LIMITS.objectFields
          ? `At most ${REQUEST_LIMITS.objectFields} fields are accepted in one object; got ${shape.widest}`
          : shape.nodes > REQUEST_LIMITS.jsonNodes
            ? `At most ${REQUEST_LIMITS.jsonNodes} arrays, objects and object fields are accepted in one body; got ${shape.nodes}`
            : undefined;
    if (message) return respond((route.bodyError ?? validationError)([{ field: 'body', message }]));
    try {
      value = JSON.parse(raw);
    } catch {
      return respond(parseError());
    }
  }
  // Array caps first: a count is cheap, the schema's work grows with every item.
  const oversized = findOversizedArray(route.body, value);
  if (oversized) return respond((route.bodyError ?? validationError)([oversized]));
  const parsed = route.body.safeParse(value);
  if (!parsed.success) {
    const details = value === undefined ? [{ field: 'body', message: 'A JSON body is required' }] : issueDetails(parsed.error.issues);
    return respond((route.bodyError ?? schemaValidation)(details));
  }
  const decoded = rememberBody(route.body, raw, parsed.data, findUnknownFields(route.body, value, 'body', route.query ? Object.keys(route.query.shape) : undefined));
  for (const unknown of decoded.unknownFields) x.warnings.push(unknown);
  return next({ body: decoded.data });
};

/**
 * Whether {@link decodeBody} would let the request on without reading its body anew: a route
 * with no body, a raw body within its limits, or a body text this route's schema already
 * accepted (remembered), within the limits and not a form. False for an unmatched route. The
 * admission stages ask it to check the per-endpoint window ahead, in the request's begin: only
 * when the request is sure to reach that window.
 */
export function decodesAsRemembered(x: Exchange): boolean {
  if (x.match.kind !== 'found') return false;
  const route = x.match.route;
  if (!route.rawBody && !route.body) return true;
  // The memo first: it answers at once for a body it cannot hold, which the size check would measure whole.
  if (!route.rawBody && route.body && rememberedBody(route.body, x.request.body ?? '') === undefined) return false;
  return refuseUnread(route, x.request) === null;
}

interface QueryField {
  readonly name: string;
  readonly schema: z.ZodType;
  readonly optional: boolean;
}

const fieldsBySchema = new WeakMap<object, readonly QueryField[]>();

function fieldsOf(schema: Pick<z.ZodObject, 'shape'>): readonly QueryField[] {
  let fields = fieldsBySchema.get(schema);
  if (!fields) {
    fields = Object.entries(schema.shape).map(([name, field]) => {
      const fieldSchema = field as z.ZodType;
      return { name, schema: fieldSchema, optional: fieldSchema.safeParse(undefined).success };
    });
    fieldsBySchema.set(schema, fields);
  }
  return fields;
}

/**
 * Reads the query string with the route's schema, field by field: what parses is handed on,
 * what does not is kept for {@link reportQueryProblems}. Names the schema does not declare are
 * dropped and named in a `Warning`; absent optional fields stay absent. A route without a schema
 * reads no query string: each parameter it is sent is named in a `Warning`. A name the query
 * string gave more than once is named too: its first value was used.
 */
export const readQuery: Stage = (x) => {
  warnRepeatedParameters(x);
  const schema = routeOf(x).query;
  if (!schema) {
    warnUnknownParameters(x, NO_QUERY_FIELDS);
    return CONTINUE;
  }
  const raw = x.request.query;
  const fields = fieldsOf(schema);
  const query: Record<string, unknown> = {};
  let problems: ErrorDetail[] | undefined;
  for (const field of fields) {
    const value = raw[field.name];
    if (value === undefined && field.optional) continue;
    const parsed = field.schema.safeParse(value);
    if (parsed.success) {
      if (parsed.data !== undefined) query[field.name] = parsed.data;
      else if (value !== undefined) x.warnings.push({ field: field.name, message: `${field.name}=${truncate(String(value), 64)} is not a value this parameter takes and was ignored` });
    } else {
      problems ??= [];
      for (const issue of parsed.error.issues) problems.push({ field: field.name, message: issue.message });
    }
  }
  if (routeOf(x).openQuery) {
    // The route reads its whole query string (the pixel's flattened event): keep every other parameter as sent.
    for (const name in raw) if (!isDeclared(fields, name) && raw[name] !== undefined) query[name] = raw[name];
  } else {
    warnUnknownParameters(x, fields);
  }
  return next(problems ? { query, queryProblems: problems } : { query });
};

const namesByFields = new WeakMap<readonly QueryField[], ReadonlySet<string>>();

function isDeclared(fields: readonly QueryField[], name: string): boolean {
  let names = namesByFields.get(fields);
  if (!names) {
    names = new Set(fields.map((field) => field.name));
    namesByFields.set(fields, names);
  }
  return names.has(name);
}

/** The fields of a route that declares no query string: every parameter it is sent is ignored. */
const NO_QUERY_FIELDS: readonly QueryField[] = [];

/** Query-string names the route does not declare: ignored, as the service does, and said so. */
/** A name the query string gave more than once: the first value was used, the others dropped. */
function warnRepeatedParameters(x: Exchange): void {
  const { repeatedQuery, query } = x.request;
  if (!repeatedQuery) return;
  for (const name of repeatedQuery) {
    const field = truncate(name, 64);
    x.warnings.push({ field, message: `${field} was given more than once; the first value (${truncate(String(query[name]), 64)}) was used and the others were ignored` });
  }
}

function warnUnknownParameters(x: Exchange, fields: readonly QueryField[]): void {
  let reported = 0;
  for (const name in x.request.query) {
    if (isDeclared(fields, name)) continue;
    if (++reported > 10) return;
    const near = suggest(name, fields.map((field) => field.name));
    x.warnings.push({
      field: truncate(name, 64),
      message: `${truncate(name, 64)} is not a query parameter of this route and was ignored`,
      ...(near ? { suggestion: `Did you mean '${near}'?` } : {}),
    });
  }
}

/**
 * Under `strict`, refuses with 400 VALIDATION_ERROR what the simulator would otherwise ignore or
 * reinterpret, naming each finding; without it the findings travel as `Warning` headers. The
 * findings move into the refusal's details: nothing was ignored, so no `Warning` goes with it.
 */
export const refuseWarnings: Stage = (x) => (x.sim.strict && x.warnings.length > 0 ? respond(validationError(x.warnings.splice(0))) : CONTINUE);

/** The missing-scope refusal of ingestion, in the service's words. */
function ingestScopeMissing(scope: string) {
  return forbidden(scope, { message: `API key missing ${scope} scope`, hint: `Sending events with an API key needs the ${scope} scope.` });
}

/**
 * Enforces the route's declared access: 401 without a credential, 403 FORBIDDEN without the
 * scope (or any scope the body needs). A `key` route's `publicWhen` admits anybody to public
 * data; an `ingest` route refuses only an API key that lacks the scope.
 */
export const enforceAccess: Stage = (x) => {
  const { access } = routeOf(x);
  if (access.kind === 'public' || access.kind === 'control') return CONTINUE;
  const principal = x.principal as Principal;
  if (access.kind === 'ingest') {
    return principal.kind === 'apikey' && !hasScope(principal, access.scope) ? respond(ingestScopeMissing(access.scope)) : CONTINUE;
  }
  if (access.publicWhen?.(contextOf(x), x.body)) return CONTINUE;
  if (principal.kind === 'anonymous') return respond(unauthenticated(principal));
  if (access.scopesFor) {
    for (const scope of access.scopesFor(x.body)) if (!hasScope(principal, scope)) return respond(forbidden(scope));
    return CONTINUE;
  }
  return hasScope(principal, access.scope) ? CONTINUE : respond(forbidden(access.scope));
};

/** The route's own `authorize`: what the request acts on (403 ACCESS_DENIED, 404). */
export const authorizeRoute: Stage = (x) => {
  const route = routeOf(x);
  if (!route.authorize) return CONTINUE;
  const access = route.authorize(contextOf(x), x.body);
  return isError(access) ? respond(access) : next({ access });
};

/** 400 VALIDATION_ERROR naming each query-string parameter that failed its schema. */
export const reportQueryProblems: Stage = (x) => (x.queryProblems ? respond(validationError(x.queryProblems)) : CONTINUE);

/** The route's own `validate` (400). */
export const validateRoute: Stage = (x) => {
  const route = routeOf(x);
  if (!route.validate) return CONTINUE;
  const input = route.validate(contextOf(x), x.body, x.access);
  return isError(input) ? respond(withIgnoredFields(input, x.warnings)) : next({ input });
};

/** Ignored fields a refusal's hint names at most. */
const MAX_HINTED_FIELDS = 5;

/**
 * A refusal of the route's own validation, with the body fields the request sent that the route
 * does not take named in its hint, each with its did-you-mean: a `start_date` refused as a
 * missing `startDate` says so in the answer, not only in a `Warning`.
 */
function withIgnoredFields(error: SimError, warnings: readonly ErrorDetail[]): SimError {
  const ignored = warnings.filter((w) => w.field.startsWith('body') && w.suggestion !== undefined).slice(0, MAX_HINTED_FIELDS);
  if (ignored.length === 0) return error;
  const named = ignored.map((w) => `${w.field} (${w.suggestion})`).join(', ');
  const hint = `The request also sent fields this route does not take, which were ignored: ${named}`;
  return { ...error, hint: error.hint === undefined ? hint : `${error.hint} ${hint}` };
}

/** The route's handler, run here and now. */
export const runHandler: Stage = (x) => {
  const answer = routeOf(x).handle(contextOf(x), x.body, x.access, x.input);
  return answer instanceof Promise ? answer.then((a) => respond(a)) : respond(answer);
};

/**
 * The route's handler. With a shared store, a route that changes state is not run here: the
 * request is logged, every process applies it in log order, and this one answers with what
 * applying it answered (and the warnings it raised).
 */
export const operate: Stage = (x) => {
  const replica = x.sim.shared?.replica;
  if (!replica || !changesState(routeOf(x))) return runHandler(x);
  const request = { request: x.request, requestId: x.requestId, now: x.now, principal: x.principal, control: x.match.kind === 'found' && x.match.route.access.kind === 'control' };
  return replica.submit(request).then((applied) => {
    for (const warning of applied.warnings) {
      if (!x.warnings.some((w) => w.field === warning.field && w.message === warning.message)) x.warnings.push(warning);
    }
    return respond(applied.answer);
  });
};
