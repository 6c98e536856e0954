import { errorBodySchema } from '../../contract/errors.js';
import { deletedResponseSchema, listQuerySchema, organizationQuerySchema } from '../../contract/manage/common.js';
import {
  createFlagSchema,
  flagListResponseSchema,
  flagResponseSchema,
  updateFlagSchema,
  type CreateFlag,
  type FeatureFlagBody,
  type UpdateFlag,
} from '../../contract/manage/flags.js';
import type { SimError } from '../errors.js';
import { defineRoute, type RouteContext } from '../routing/route.js';
import { authorizeItem, FLAG, reaches, resolveCaller, type Caller, type Found } from './access.js';
import { BAD_PAGE, checkWebsiteRef, deletedReply, inCreationOrder, iso, itemReply, listReply, pageRequest, taken, type PageRequest } from './kit.js';
import type { FeatureFlag, FlagRule } from './model.js';

const SCOPE = 'manage:flags';

const NOT_FOUND = { description: 'No feature flag has this id (NOT_FOUND)', schema: errorBodySchema };
const CONFLICT = { description: 'Another flag of the organization has this key (CONFLICT)', schema: errorBodySchema };

/** A feature flag as the management routes return it. */
export function flagWire(flag: FeatureFlag): FeatureFlagBody {
  return {
    id: flag.id,
    organizationId: flag.organizationId,
    websiteId: flag.websiteId,
    key: flag.key,
    description: flag.description,
    enabled: flag.enabled,
    rolloutPercentage: flag.rolloutPercentage,
    rules: flag.rules.map((r) => ({ attribute: r.attribute, operator: r.operator, values: [...r.values], value: r.value })),
    createdAt: iso(flag.createdAt),
    updatedAt: iso(flag.updatedAt),
  };
}

/** 409 when another flag of the organization has `key` (compared case-insensitively). */
function keyTaken(ctx: RouteContext, organizationId: string, key: string, exceptId?: string): SimError | undefined {
  const wanted = key.toLowerCase();
  for (const flag of ctx.state.manage.flags.values()) {
    if (flag.organizationId === organizationId && flag.key.toLowerCase() === wanted && flag.id !== exceptId) {
      return taken('Key', key, 'by another flag of this organization');
    }
  }
  return undefined;
}

const copyRules = (rules: readonly FlagRule[]): FlagRule[] => rules.map((r) => ({ ...r, values: [...r.values] }));

const byId = authorizeItem<FeatureFlag>(FLAG, (ctx, id) => ctx.state.manage.flags.get(id));

/** Feature flags with targeting rules (manage:flags). */
export const flagRoutes = [
  defineRoute<undefined, Caller, PageRequest>({
    method: 'GET',
    path: '/v1/flags',
    family: 'manage',
    access: { kind: 'key', scope: SCOPE },
    summary: 'List the feature flags of the organization the caller reaches, by creation.',
    query: listQuerySchema,
    responses: { 200: { description: 'A page of flags', schema: flagListResponseSchema }, 400: BAD_PAGE },
    authorize: (ctx) => resolveCaller(ctx),
    validate: (ctx) => pageRequest(ctx),
    handle(ctx, _body, caller, page) {
      const items = inCreationOrder([...ctx.state.manage.flags.values()].filter((f) => reaches(caller, f)));
      return listReply(ctx, items, page, flagWire);
    },
  }),
  defineRoute<CreateFlag, Caller>({
    method: 'POST',
    path: '/v1/flags',
    family: 'manage',
    access: { kind: 'key', scope: SCOPE },
    summary: 'Create a feature flag (default disabled, 0% rollout, no rules).',
    query: organizationQuerySchema,
    body: createFlagSchema,
    responses: { 201: { description: 'The created flag', schema: flagResponseSchema }, 409: CONFLICT },
    authorize: (ctx) => resolveCaller(ctx),
    validate: (ctx, body, caller) => checkWebsiteRef(ctx, caller, body.websiteId ?? null),
    handle(ctx, body, caller) {
      const conflict = keyTaken(ctx, caller.organizationId, body.key);
      if (conflict) return conflict;
      const flag: FeatureFlag = {
        id: ctx.state.manage.ids.next('flag'),
        organizationId: caller.organizationId,
        websiteId: body.websiteId ?? null,
        key: body.key,
        description: body.description ?? null,
        enabled: body.enabled ?? false,
        rolloutPercentage: body.rolloutPercentage ?? 0,
        rules: copyRules(body.rules ?? []),
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      ctx.state.manage.flags.set(flag.id, flag);
      return itemReply(ctx, flagWire(flag), 201);
    },
  }),
  defineRoute<undefined, Found<FeatureFlag>>({
    method: 'GET',
    path: '/v1/flags/:id',
    family: 'manage',
    access: { kind: 'key', scope: SCOPE },
    summary: 'Get a feature flag with its rules.',
    query: organizationQuerySchema,
    responses: { 200: { description: 'The flag', schema: flagResponseSchema }, 404: NOT_FOUND },
    authorize: byId,
    handle: (ctx, _body, { item }) => itemReply(ctx, flagWire(item)),
  }),
  defineRoute<UpdateFlag, Found<FeatureFlag>>({
    method: 'PATCH',
    path: '/v1/flags/:id',
    family: 'manage',
    access: { kind: 'key', scope: SCOPE },
    summary: 'Change a feature flag; rules, when given, replace the whole list.',
    query: organizationQuerySchema,
    body: updateFlagSchema,
    responses: { 200: { description: 'The changed flag', schema: flagResponseSchema }, 404: NOT_FOUND, 409: CONFLICT },
    authorize: byId,
    validate: (ctx, body, { caller }) => (body.websiteId === undefined ? undefined : checkWebsiteRef(ctx, caller, body.websiteId)),
    handle(ctx, body, { item }) {
      const conflict = body.key === undefined ? undefined : keyTaken(ctx, item.organizationId, body.key, item.id);
      if (conflict) return conflict;
      const next: FeatureFlag = {
        ...item,
        key: body.key ?? item.key,
        description: body.description === undefined ? item.description : body.description,
        enabled: body.enabled ?? item.enabled,
        rolloutPercentage: body.rolloutPercentage ?? item.rolloutPercentage,
        rules: body.rules === undefined ? item.rules : copyRules(body.rules),
        websiteId: body.websiteId === undefined ? item.websiteId : body.websiteId,
        updatedAt: ctx.now,
      };
      ctx.state.manage.flags.set(item.id, next);
      return itemReply(ctx, flagWire(next));
    },
  }),
  defineRoute<undefined, Found<FeatureFlag>>({
    method: 'DELETE',
    path: '/v1/flags/:id',
    family: 'manage',
    access: { kind: 'key', scope: SCOPE },
    summary: 'Delete a feature flag.',
    query: organizationQuerySchema,
    responses: { 200: { description: 'Deleted', schema: deletedResponseSchema }, 404: NOT_FOUND },
    authorize: byId,
    handle(ctx, _body, { item }) {
      ctx.state.manage.flags.delete(item.id);
      return deletedReply(ctx, item.id);
    },
  }),
];
