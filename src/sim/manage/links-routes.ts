import { errorBodySchema } from '../../contract/errors.js';
import { linkSchemas, type CreateLink, type ManagedLink, type UpdateLink } from '../../contract/manage/links.js';
import type { SimError } from '../errors.js';
import type { ShortLink } from '../model/entities.js';
import type { RouteContext } from '../routing/route.js';
import { LINK } from './access.js';
import { iso, stampItem, taken } from './kit.js';
import { defineResource } from './resource.js';

/** Mean clicks a day of a link created at run time (its analytics are generated like the fixtures'). */
export const DEFAULT_DAILY_CLICKS = 25;

/** Characters of a generated slug. */
const GENERATED_SLUG_LENGTH = 7;

/** A short link as the management routes return it. */
export function linkWire(link: ShortLink): ManagedLink {
  return {
    id: link.id,
    organizationId: link.organizationId,
    websiteId: link.websiteId ?? null,
    slug: link.slug,
    targetUrl: link.targetUrl,
    title: link.title ?? null,
    createdAt: iso(link.createdAt),
    updatedAt: iso(link.updatedAt ?? link.createdAt),
  };
}

/** Whether a link other than `exceptId` has `slug` (slugs are unique across the service, case-insensitively). */
function slugTaken(ctx: RouteContext, slug: string, exceptId?: string): boolean {
  const wanted = slug.toLowerCase();
  for (const link of ctx.state.links.values()) if (link.slug.toLowerCase() === wanted && link.id !== exceptId) return true;
  return false;
}

function slugConflict(slug: string): SimError {
  return taken('Slug', slug, 'by another short link');
}

/** Short links: read:links lists and reads, write:links creates, changes and deletes. */
export const linkRoutes = defineResource<ShortLink, CreateLink, UpdateLink>({
  path: '/v1/links',
  kind: LINK,
  scopes: { read: 'read:links', write: 'write:links' },
  items: (state) => state.links,
  wire: linkWire,
  schemas: linkSchemas,
  noun: 'short link',
  summaries: {
    create: 'Create a short link (a slug is generated when none is given).',
    update: 'Change a short link: targetUrl, slug, title or websiteId.',
  },
  conflict: { description: 'The slug is taken (CONFLICT)', schema: errorBodySchema },
  create(ctx, body, caller) {
    if (body.slug !== undefined && slugTaken(ctx, body.slug)) return slugConflict(body.slug);
    let slug = body.slug;
    while (slug === undefined || slugTaken(ctx, slug)) slug = ctx.state.manage.ids.token(GENERATED_SLUG_LENGTH);
    return stampItem(ctx, 'link', caller.organizationId, body.websiteId ?? null, {
      slug,
      targetUrl: body.targetUrl,
      title: body.title ?? null,
      baseDailyClicks: DEFAULT_DAILY_CLICKS,
    });
  },
  update(ctx, body, item) {
    if (body.slug !== undefined && slugTaken(ctx, body.slug, item.id)) return slugConflict(body.slug);
    return {
      ...item,
      targetUrl: body.targetUrl ?? item.targetUrl,
      slug: body.slug ?? item.slug,
      title: body.title === undefined ? (item.title ?? null) : body.title,
      websiteId: body.websiteId === undefined ? (item.websiteId ?? null) : body.websiteId,
      updatedAt: ctx.now,
    };
  },
});
