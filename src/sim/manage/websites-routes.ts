import { errorBodySchema } from '../../contract/errors.js';
import { websiteSchemas, type CreateWebsite, type UpdateWebsite } from '../../contract/manage/websites.js';
import { accessDenied } from '../errors.js';
import type { Website } from '../model/entities.js';
import { organizationWide, WEBSITE } from './access.js';
import { taken } from './kit.js';
import { defineResource } from './resource.js';
import { DEFAULT_TRAFFIC_SIZE, deleteWebsite, domainTaken, SESSIONS_BY_SIZE, websiteWire } from './websites.js';

/** Websites CRUD (manage:websites). Created websites get generated traffic and appear in the Query API. */
export const websiteRoutes = defineResource<Website, CreateWebsite, UpdateWebsite>({
  path: '/v1/websites',
  kind: WEBSITE,
  scopes: { read: 'manage:websites', write: 'manage:websites' },
  items: (state) => state.websites,
  attachedTo: (website) => website.id,
  wire: websiteWire,
  schemas: websiteSchemas,
  noun: 'website',
  summaries: {
    create: 'Create a website; it gets generated traffic of trafficSize (default small, ~150 sessions a day).',
    update: 'Change a website: name, domain, isPublic or trafficSize.',
    delete: 'Delete a website; its links, monitors, status pages and flags stay, detached from it.',
  },
  conflict: { description: 'Another website of the organization has this domain (CONFLICT)', schema: errorBodySchema },
  mayCreate: (caller) =>
    organizationWide(caller) ? undefined : accessDenied('organization', { hint: 'A website-restricted API key cannot create websites.' }),
  validateCreate: () => undefined,
  validateUpdate: () => undefined,
  create(ctx, body, caller) {
    if (domainTaken(ctx.state, caller.organizationId, body.domain)) return taken('Domain', body.domain, 'by a website of this organization');
    const size = body.trafficSize ?? DEFAULT_TRAFFIC_SIZE;
    return {
      id: ctx.state.manage.ids.next('web'),
      organizationId: caller.organizationId,
      name: body.name,
      domain: body.domain,
      isPublic: body.isPublic ?? false,
      createdAt: ctx.now,
      size,
      baseDailySessions: SESSIONS_BY_SIZE[size],
      updatedAt: ctx.now,
    };
  },
  update(ctx, body, item) {
    if (body.domain !== undefined && domainTaken(ctx.state, item.organizationId, body.domain, item.id)) {
      return taken('Domain', body.domain, 'by a website of this organization');
    }
    const size = body.trafficSize ?? item.size;
    if (size !== item.size) ctx.state.traffic.clear();
    // Rows read the domain and the name too (error file names, MCP server names, revenue), and
    // the result cache keys on the website's id: they go whenever one of them changes.
    if (size !== item.size || (body.domain ?? item.domain) !== item.domain || (body.name ?? item.name) !== item.name) ctx.state.results.clear();
    return {
      ...item,
      name: body.name ?? item.name,
      domain: body.domain ?? item.domain,
      isPublic: body.isPublic ?? item.isPublic,
      size,
      baseDailySessions: size === item.size ? item.baseDailySessions : SESSIONS_BY_SIZE[size],
      updatedAt: ctx.now,
    };
  },
  remove: (state, item, now) => deleteWebsite(state, item.id, now),
});
