import { errorBodySchema } from '../../contract/errors.js';
import { flagSchemas, type CreateFlag, type FeatureFlagBody, type UpdateFlag } from '../../contract/manage/flags.js';
import type { SimError } from '../errors.js';
import type { RouteContext } from '../routing/route.js';
import { FLAG } from './access.js';
import { iso, stampItem, taken } from './kit.js';
import { defineResource } from './resource.js';
import type { FeatureFlag, FlagRule } from './model.js';

const SCOPE = 'manage:flags';

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

/** Feature flags with targeting rules (manage:flags). */
export const flagRoutes = defineResource<FeatureFlag, CreateFlag, UpdateFlag>({
  path: '/v1/flags',
  kind: FLAG,
  scopes: { read: SCOPE, write: SCOPE },
  items: (state) => state.manage.flags,
  wire: flagWire,
  schemas: flagSchemas,
  noun: 'feature flag',
  summaries: {
    create: 'Create a feature flag (default disabled, 0% rollout, no rules).',
    get: 'Get a feature flag with its rules.',
    update: 'Change a feature flag; rules, when given, replace the whole list.',
  },
  conflict: { description: 'Another flag of the organization has this key (CONFLICT)', schema: errorBodySchema },
  create(ctx, body, caller) {
    return (
      keyTaken(ctx, caller.organizationId, body.key) ??
      stampItem(ctx, 'flag', caller.organizationId, body.websiteId ?? null, {
        key: body.key,
        description: body.description ?? null,
        enabled: body.enabled ?? false,
        rolloutPercentage: body.rolloutPercentage ?? 0,
        rules: copyRules(body.rules ?? []),
      })
    );
  },
  update(ctx, body, item) {
    const conflict = body.key === undefined ? undefined : keyTaken(ctx, item.organizationId, body.key, item.id);
    return (
      conflict ?? {
        ...item,
        key: body.key ?? item.key,
        description: body.description === undefined ? item.description : body.description,
        enabled: body.enabled ?? item.enabled,
        rolloutPercentage: body.rolloutPercentage ?? item.rolloutPercentage,
        rules: body.rules === undefined ? item.rules : copyRules(body.rules),
        websiteId: body.websiteId === undefined ? item.websiteId : body.websiteId,
        updatedAt: ctx.now,
      }
    );
  },
});
