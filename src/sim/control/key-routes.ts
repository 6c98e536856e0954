import type { z } from 'zod';
import {
  auditListResponseSchema,
  auditQuerySchema,
  createKeyRequestSchema,
  deleteKeyResponseSchema,
  issuedKeySchema,
  keyListQuerySchema,
  keyListResponseSchema,
  keyResponseSchema,
  revokeKeyResponseSchema,
  type ApiKeyView,
  updateKeyRequestSchema,
} from '../../contract/keys.js';
import { errorBodySchema } from '../../contract/errors.js';
import {
  createKey,
  DEFAULT_ACTOR,
  deleteKey,
  findKeys,
  getKey,
  listAudit,
  revokeKey,
  rotateKey,
  updateKey,
  viewKey,
  type AdminContext,
} from '../admin/keys.js';
import type { SimError } from '../errors.js';
import { isError, ok, okUnlessRefused, type DocumentedResponse, type Route, type RouteContext } from '../routing/route.js';
import { pageOf, readListPage } from '../routing/list-page.js';
import { defineControlRoute } from './control-route.js';
import type { SimRequest } from '../messages.js';

const ACTOR = /^[\x20-\x7e]{1,64}$/;

/** The actor of a change: the `x-sim-actor` header (printable, at most 64 characters), else `control-plane`. */
export function actorOf(request: Pick<SimRequest, 'headers'>): string {
  const header = request.headers['x-sim-actor']?.trim();
  return header !== undefined && ACTOR.test(header) ? header : DEFAULT_ACTOR;
}

function admin(ctx: RouteContext<unknown>): AdminContext {
  return { state: ctx.state, now: ctx.now, actor: actorOf(ctx.request) };
}

const NOT_FOUND = { description: 'No key has this id (NOT_FOUND)', schema: errorBodySchema };
const INVALID = { description: 'A field is wrong (VALIDATION), with details naming each field', schema: errorBodySchema };

/** A key view as `GET` and `PATCH /__sim/keys/:id` answer it, `{ key }`, or the refusal. */
function keyAnswer(key: ApiKeyView | SimError): { key: ApiKeyView } | SimError {
  return isError(key) ? key : { key };
}

/**
 * A route on the key the path names, `/__sim/keys/:id` or an `action` below it: answers what
 * `run` returns for the key and the actor of the request, or its refusal; every one may answer
 * 404.
 */
function defineKeyRoute<Body = undefined>(spec: {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly action?: string;
  readonly summary: string;
  readonly body?: z.ZodType<Body>;
  readonly responses: Record<number, DocumentedResponse>;
  readonly run: (admin: AdminContext, keyId: string, body: Body) => unknown;
}): Route {
  const { method, action, summary, body, responses, run } = spec;
  return defineControlRoute<Body>({
    method,
    path: action === undefined ? '/__sim/keys/:id' : `/__sim/keys/:id/${action}`,
    summary,
    ...(body ? { body } : {}),
    responses: { ...responses, 404: NOT_FOUND },
    handle: (ctx, input) => okUnlessRefused(run(admin(ctx), ctx.params.id as string, input)),
  });
}

/**
 * Key administration under `/__sim/keys` and the audit log, `/__sim/audit`: what the live
 * service's dashboard does (SPEC 5.6), as a harness API. Each mutation writes an audit record;
 * requests made with keys are not audited.
 */
export const keyRoutes = [
  defineControlRoute({
    method: 'POST',
    path: '/__sim/keys',
    summary: 'Create an API key (name, organizationId, scopes, websiteIds or global, expiresAt, quota); the secret is shown only in this answer.',
    body: createKeyRequestSchema,
    responses: {
      201: { description: 'Created; `secret` is shown only here and at rotation', schema: issuedKeySchema },
      409: { description: 'A key with the chosen id exists (CONFLICT)', schema: errorBodySchema },
      422: INVALID,
    },
    handle: (ctx, body) => okUnlessRefused(createKey(admin(ctx), body), 201),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__sim/keys',
    summary: 'The API keys (fixtures first), a page of at most 1,000 at a time, with prefix and start but never a secret; filter by organizationId or status.',
    query: keyListQuerySchema,
    responses: {
      200: { description: 'One page of the keys; total counts every key the filters keep', schema: keyListResponseSchema },
      400: { description: 'A filter, page or limit is not usable (VALIDATION_ERROR), details name it', schema: errorBodySchema },
    },
    handle(ctx) {
      const found = findKeys({ state: ctx.state, now: ctx.now }, ctx.query);
      const keys = pageOf(found, readListPage(ctx.query)).map((k) => viewKey(k, ctx.state, ctx.now));
      return ok({ keys, total: found.length });
    },
  }),
  defineKeyRoute({
    method: 'GET',
    summary: 'One API key, without its secret.',
    responses: { 200: { description: 'The key', schema: keyResponseSchema } },
    run: (admin, keyId) => keyAnswer(getKey(admin, keyId)),
  }),
  defineKeyRoute({
    method: 'PATCH',
    summary: 'Change a key’s name, scopes, websiteIds or global access, expiresAt, quota or enabled; applies to the next request.',
    body: updateKeyRequestSchema,
    responses: { 200: { description: 'The changed key', schema: keyResponseSchema }, 422: INVALID },
    run: (admin, keyId, body) => keyAnswer(updateKey(admin, keyId, body)),
  }),
  defineKeyRoute({
    method: 'POST',
    action: 'rotate',
    summary: 'Issue a new secret for a key; the old secret is refused from the next request on.',
    responses: {
      200: { description: 'The key and its new secret, shown only here', schema: issuedKeySchema },
      409: { description: 'The key is revoked (CONFLICT)', schema: errorBodySchema },
    },
    run: rotateKey,
  }),
  defineKeyRoute({
    method: 'POST',
    action: 'revoke',
    summary: 'Revoke a key for good; idempotent (a second call answers alreadyRevoked: true and audits nothing).',
    responses: { 200: { description: 'The revoked key', schema: revokeKeyResponseSchema } },
    run: revokeKey,
  }),
  defineKeyRoute({
    method: 'DELETE',
    summary: 'Delete a key (fixture keys too, until the next reset).',
    responses: { 200: { description: 'Deleted', schema: deleteKeyResponseSchema } },
    run: deleteKey,
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__sim/audit',
    summary: 'Audit records of key mutations (created, updated, revoked, rotated, deleted), oldest first; filter by keyId or kind.',
    query: auditQuerySchema,
    responses: { 200: { description: 'The records', schema: auditListResponseSchema } },
    handle: (ctx) => ok(listAudit(ctx.state, ctx.query)),
  }),
];
