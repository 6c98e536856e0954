import {
  organizationSettingsResponseSchema,
  updateOrganizationSettingsSchema,
  type OrganizationSettingsBody,
  type UpdateOrganizationSettings,
} from '../../contract/manage/organization.js';
import { accessDenied, type SimError } from '../errors.js';
import type { Organization } from '../model/entities.js';
import { canonicalTimeZone } from '../query/engine/dates.js';
import { isError, type RouteContext } from '../routing/route.js';
import type { SimState } from '../state.js';
import { organizationWide, resolveCaller, type Caller } from './access.js';
import { checkWebsiteRef, iso, itemReply, defineManageRoute } from './kit.js';
import { defaultSettings } from './store.js';
import type { OrganizationSettings } from './model.js';

const SCOPE = 'manage:config';

/** The organization settings as the routes return them. */
function settingsWire(state: SimState, organization: Organization): OrganizationSettingsBody {
  const settings = state.manage.settings.get(organization.id) ?? defaultSettings(organization);
  return {
    organizationId: organization.id,
    name: organization.name,
    slug: organization.slug,
    timezone: settings.timezone,
    defaultWebsiteId: settings.defaultWebsiteId,
    dataRetentionDays: settings.dataRetentionDays,
    allowedOrigins: [...settings.allowedOrigins],
    createdAt: iso(organization.createdAt),
    updatedAt: iso(settings.updatedAt),
  };
}

/** Settings are the organization's as a whole: a website-restricted key is out of reach (403 ACCESS_DENIED). */
function authorize(ctx: RouteContext): Caller | SimError {
  const caller = resolveCaller(ctx);
  if (isError(caller) || organizationWide(caller)) return caller;
  return { ...accessDenied('organization'), hint: 'Organization settings need an API key with access to the whole organization.' };
}

/** Organization settings (manage:config). */
export const organizationRoutes = [
  defineManageRoute<undefined, Caller>({
    method: 'GET',
    path: '/v1/organization/settings',
    access: { kind: 'key', scope: SCOPE },
    summary: 'The settings of the organization: name, time zone, default website, data retention, allowed origins.',
    responses: { 200: { description: 'The settings', schema: organizationSettingsResponseSchema } },
    authorize,
    handle(ctx, _body, caller) {
      return itemReply(ctx, settingsWire(ctx.state, ctx.state.organizations.get(caller.organizationId) as Organization));
    },
  }),
  defineManageRoute<UpdateOrganizationSettings, Caller>({
    method: 'PATCH',
    path: '/v1/organization/settings',
    access: { kind: 'key', scope: SCOPE },
    summary: 'Change the settings of the organization; a new name shows in the website list too.',
    body: updateOrganizationSettingsSchema,
    responses: { 200: { description: 'The changed settings', schema: organizationSettingsResponseSchema } },
    authorize,
    validate: (ctx, body, caller) =>
      body.defaultWebsiteId == null ? undefined : checkWebsiteRef(ctx, caller, body.defaultWebsiteId, 'body.defaultWebsiteId'),
    handle(ctx, body, caller) {
      const { state } = ctx;
      let organization = state.organizations.get(caller.organizationId) as Organization;
      if (body.name !== undefined && body.name !== organization.name) {
        organization = { ...organization, name: body.name };
        state.organizations.set(organization.id, organization);
      }
      const current = state.manage.settings.get(organization.id) ?? defaultSettings(organization);
      const next: OrganizationSettings = {
        ...current,
        timezone: body.timezone === undefined ? current.timezone : (canonicalTimeZone(body.timezone) ?? body.timezone),
        defaultWebsiteId: body.defaultWebsiteId === undefined ? current.defaultWebsiteId : body.defaultWebsiteId,
        dataRetentionDays: body.dataRetentionDays ?? current.dataRetentionDays,
        allowedOrigins: body.allowedOrigins === undefined ? current.allowedOrigins : [...body.allowedOrigins],
        updatedAt: ctx.now,
      };
      state.manage.settings.set(organization.id, next);
      return itemReply(ctx, settingsWire(state, organization));
    },
  }),
];
