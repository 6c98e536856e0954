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
import { isError, ok, type RouteContext, okUnlessRefused } from '../routing/route.js';
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

const id = (ctx: RouteContext<unknown>): string => ctx.params.id as string;

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
  defineControlRoute({
    method: 'GET',
    path: '/__sim/keys/:id',
    summary: 'One API key, without its secret.',
    responses: { 200: { description: 'The key', schema: keyResponseSchema }, 404: NOT_FOUND },
    handle(ctx) {
      const key = getKey({ state: ctx.state, now: ctx.now }, id(ctx));
      return isError(key) ? key : ok({ key });
    },
  }),
  defineControlRoute({
    method: 'PATCH',
    path: '/__sim/keys/:id',
    summary: 'Change a key’s name, scopes, websiteIds or global access, expiresAt, quota or enabled; applies to the next request.',
    body: updateKeyRequestSchema,
    responses: { 200: { description: 'The changed key', schema: keyResponseSchema }, 404: NOT_FOUND, 422: INVALID },
    handle(ctx, body) {
      const key = updateKey(admin(ctx), id(ctx), body);
      return isError(key) ? key : ok({ key });
    },
  }),
  defineControlRoute({
    method: 'POST',
    path: '/__sim/keys/:id/rotate',
    summary: 'Issue a new secret for a key; the old secret is refused from the next request on.',
    responses: {
      200: { description: 'The key and its new secret, shown only here', schema: issuedKeySchema },
      404: NOT_FOUND,
      409: { description: 'The key is revoked (CONFLICT)', schema: errorBodySchema },
    },
    handle: (ctx) => okUnlessRefused(rotateKey(admin(ctx), id(ctx))),
  }),
  defineControlRoute({
    method: 'POST',
    path: '/__sim/keys/:id/revoke',
    summary: 'Revoke a key for good; idempotent (a second call answers alreadyRevoked: true and audits nothing).',
    responses: { 200: { description: 'The revoked key', schema: revokeKeyResponseSchema }, 404: NOT_FOUND },
    handle: (ctx) => okUnlessRefused(revokeKey(admin(ctx), id(ctx))),
  }),
  defineControlRoute({
    method: 'DELETE',
    path: '/__sim/keys/:id',
    summary: 'Delete a key (fixture keys too, until the next reset).',
    responses: { 200: { description: 'Deleted', schema: deleteKeyResponseSchema }, 404: NOT_FOUND },
    handle: (ctx) => okUnlessRefused(deleteKey(admin(ctx), id(ctx))),
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
