import { z } from 'zod';
import { keyQuotaInputSchema } from './keys.js';
import { scopeSchema } from './scopes.js';

/** The most organizations a world may have, declared and generated together. */
export const MAX_WORLD_ORGANIZATIONS = 1_000;
/** The most websites a world may have, declared and generated together. */
export const MAX_WORLD_WEBSITES = 10_000;
/** The most API keys a world may have, declared and generated together. */
export const MAX_WORLD_KEYS = 20_000;
/** The most users a generated organization may have. */
export const MAX_USERS_PER_ORGANIZATION = 20;
/** The most pages, events and campaigns one declared website may list. */
export const MAX_DECLARED_PAGES = 500;
export const MAX_DECLARED_EVENTS = 50;
export const MAX_DECLARED_CAMPAIGNS = 50;
/** The most users, links or monitors a world may declare (each). */
export const MAX_DECLARED_RECORDS = 1_000;
/** The most properties one declared event may send. */
export const MAX_EVENT_PROPERTIES = 20;
/** The most mean daily sessions a declared website may have (the fixtures' largest has 120,000). */
export const MAX_DAILY_SESSIONS = 200_000;

/** The kinds of website the traffic model knows: each picks a rhythm, devices, sources, pages and events. */
export const WEBSITE_KINDS = ['shop', 'blog', 'docs', 'saas', 'landing'] as const;

/** Faker locales a world may take its words from (`--locale`, `world.locale`). */
export const WORLD_LOCALES = ['en', 'en_GB', 'de', 'fr', 'es', 'it', 'nl', 'pt_BR', 'pl', 'sv', 'ja', 'ko'] as const;

/** What `world.generate` and a `--world` preset ask for: counts of generated entities. */
export const worldCountsSchema = z
  .object({
    organizations: z.number().int().min(0).max(MAX_WORLD_ORGANIZATIONS).describe(`Generated organizations, 0 to ${MAX_WORLD_ORGANIZATIONS}.`),
    websitesPerOrganization: z
      .number()
      .int()
      .min(0)
      .max(MAX_WORLD_WEBSITES)
      .optional()
      .describe(`Websites of each generated organization (default 5); every website of the world together at most ${MAX_WORLD_WEBSITES}.`),
    keysPerOrganization: z
      .number()
      .int()
      .min(0)
      .max(20)
      .optional()
      .describe('API keys of each generated organization, 0 to 20 (default 2): the first reads every website, the second tracks events, the rest read one website each.'),
    usersPerOrganization: z
      .number()
      .int()
      .min(1)
      .max(MAX_USERS_PER_ORGANIZATION)
      .optional()
      .describe(`Members of each generated organization, 1 to ${MAX_USERS_PER_ORGANIZATION} (default 2).`),
  })
  .strict();

/** See {@link worldCountsSchema}. */
export type WorldCounts = z.infer<typeof worldCountsSchema>;

/** The `--world` presets: 2, 50 and 1,000 organizations with 10, 1,000 and 10,000 websites. */
export const WORLD_PRESETS = {
  small: { organizations: 2, websitesPerOrganization: 5, keysPerOrganization: 2, usersPerOrganization: 2 },
  medium: { organizations: 50, websitesPerOrganization: 20, keysPerOrganization: 3, usersPerOrganization: 3 },
  large: { organizations: 1_000, websitesPerOrganization: 10, keysPerOrganization: 2, usersPerOrganization: 2 },
} as const satisfies Record<string, Required<WorldCounts>>;

/** A preset name of {@link WORLD_PRESETS}. */
export type WorldPreset = keyof typeof WORLD_PRESETS;

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;
const ID_MESSAGE = '1 to 100 letters, digits, _, ., : or -, starting with a letter or digit';
const entityId = z.string().regex(ID_PATTERN, ID_MESSAGE);

/** A host name of two or more labels, lower case (`shop.example.com`). */
const DOMAIN_PATTERN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** Whether `zone` is an IANA time zone this runtime knows (`Europe/Berlin`, `UTC`). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A page of a declared website: its path, its share of the pageviews and its title. */
export const worldPageSchema = z
  .object({
    path: z
      .string()
      .regex(/^\/[^\s?#]{0,299}$/, 'a path starting with / and without spaces, ? or # (at most 300 characters)')
      .describe('The page path, as the tracker sends it (/pricing).'),
    weight: z.number().positive().max(1_000_000).optional().describe('Relative share of the pageviews (default 1).'),
    entry: z.number().min(0).max(1_000).optional().describe('How often a visit starts here, relative to the weight (default 1; 0: never an entry page).'),
    title: z.string().min(1).max(300).optional().describe('The page title (checked; not yet in any answer).'),
  })
  .strict();

/**
 * An API key of a declared organization. Its owner is the organization's first generated
 * member; without `secret` one is drawn from the seed, as for the fixture keys.
 */
export const worldKeySchema = z
  .object({
    id: z.string().regex(/^key_[A-Za-z0-9_-]{1,64}$/, 'an id of the form key_ followed by 1 to 64 letters, digits, _ or -'),
    name: z.string().trim().min(1).max(100).optional(),
    organizationId: entityId.describe('Its organization, one the world declares.'),
    scopes: z.array(scopeSchema).min(1).max(20),
    websiteIds: z.array(entityId).min(1).max(100).optional().describe('Websites of its organization it is restricted to; omitted: all of them.'),
    secret: z.string().regex(/^dbdy_[A-Za-z0-9]{48}$/, 'dbdy_ followed by 48 letters or digits').optional(),
    quota: keyQuotaInputSchema.optional(),
    enabled: z.boolean().optional(),
    purpose: z.string().max(200).optional().describe('What the key is for, shown in /__sim/fixtures.'),
  })
  .strict();

/** A custom event a declared website sends. */
export const worldEventSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, '1 to 64 letters, digits, _, ., : or -').describe('The event name (signup).'),
    weight: z.number().positive().max(1_000_000).optional().describe('Relative share among the website\'s events (default 1).'),
    properties: z
      .record(
        z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, '1 to 64 letters, digits, _, . or -'),
        z.union([z.enum(['string', 'number', 'boolean']), z.array(z.string().min(1).max(100)).min(1).max(50)]),
      )
      .refine((properties) => Object.keys(properties).length <= MAX_EVENT_PROPERTIES, `at most ${MAX_EVENT_PROPERTIES} properties`)
      .optional()
      .describe('The properties it sends, by key: "string" (an id-like text), "number" (1 to 100), "boolean", or a list of the values it takes. Default: none (or the built-in ones of a built-in event name).'),
  })
  .strict();

/** A UTM campaign a declared website runs. */
export const worldCampaignSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, '1 to 100 letters, digits, _, ., : or -').describe('utm_campaign.'),
    source: z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, '1 to 100 letters, digits, _, ., : or -').optional().describe('utm_source (default newsletter).'),
    medium: z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, '1 to 100 letters, digits, _, ., : or -').optional().describe('utm_medium (default email).'),
  })
  .strict();

/** A dashboard user the world declares, a member of declared organizations. */
export const worldUserSchema = z
  .object({
    id: entityId.describe('The user id, used as given.'),
    name: z.string().trim().min(1).max(200).optional().describe('Display name (default: generated).'),
    email: z.email().max(254).optional().describe('E-mail address (default: generated).'),
    organizationIds: z.array(entityId).min(1).max(100).describe('The declared organizations the user is a member of; the first is the one a session acts for.'),
  })
  .strict();

/** A short link the world declares; its clicks are generated per day. */
export const worldLinkSchema = z
  .object({
    id: entityId.describe('The link id, used as given (query its clicks with link_id).'),
    organizationId: entityId.describe('Its organization, one the world declares.'),
    websiteId: entityId.optional().describe('The declared website of that organization it belongs to.'),
    slug: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, '1 to 100 letters, digits, _ or -').optional().describe('Its slug (default: generated).'),
    targetUrl: z.url({ protocol: /^https?$/ }).max(2000).describe('Where it redirects.'),
    title: z.string().min(1).max(200).optional(),
    dailyClicks: z.number().int().min(0).max(100_000).optional().describe('Mean clicks a day (default 100).'),
  })
  .strict();

/** An uptime monitor the world declares; its checks are generated per day. */
export const worldMonitorSchema = z
  .object({
    id: entityId.describe('The monitor id, used as given (query its checks with schedule_id).'),
    organizationId: entityId.describe('Its organization, one the world declares.'),
    websiteId: entityId.optional().describe('The declared website of that organization it watches.'),
    name: z.string().min(1).max(200).optional().describe('Display name (default: the URL\'s host).'),
    url: z.url({ protocol: /^https?$/ }).max(2000).describe('The URL it checks.'),
    intervalSeconds: z.number().int().min(30).max(86_400).optional().describe('Seconds between two checks, 30 to 86,400 (default 60).'),
  })
  .strict();

/** A status page the world declares. */
export const worldStatusPageSchema = z
  .object({
    id: entityId.describe('The status page id, used as given.'),
    organizationId: entityId.describe('Its organization, one the world declares.'),
    websiteId: entityId.optional().describe('The declared website of that organization it belongs to (default: the whole organization).'),
    name: z.string().min(1).max(200).optional().describe('Display name (default: the organization\'s name and "Status").'),
    slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/, '1 to 100 lower-case letters, digits or -').optional().describe('Its public slug, unique (default: from the id).'),
    description: z.string().max(1000).optional(),
    published: z.boolean().optional().describe('Whether the public read answers it (default true).'),
    monitorIds: z.array(entityId).max(100).optional().describe('Declared monitors of the organization it shows (default none).'),
  })
  .strict();

/** A feature flag the world declares. */
export const worldFlagSchema = z
  .object({
    id: entityId.describe('The flag id, used as given.'),
    organizationId: entityId.describe('Its organization, one the world declares.'),
    websiteId: entityId.optional().describe('The declared website of that organization it belongs to.'),
    key: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, '1 to 100 letters, digits, _, . or -').describe('Its key, unique in the organization.'),
    description: z.string().max(1000).optional(),
    enabled: z.boolean().optional().describe('Default true.'),
    rolloutPercentage: z.number().int().min(0).max(100).optional().describe('Default 100.'),
  })
  .strict();

/** An organization the world declares. */
export const worldOrganizationSchema = z
  .object({
    id: entityId.describe('The organization id, used as given.'),
    name: z.string().trim().min(1).max(200).optional().describe('Display name (default: generated).'),
    plan: z.enum(['free', 'hobby', 'pro', 'scale']).optional().describe('Billing plan (default pro); free lacks error tracking.'),
  })
  .strict();

/** A website the world declares; what it leaves out is generated or taken from its kind. */
export const worldWebsiteSchema = z
  .object({
    id: entityId.describe('The website id, used as given: a client\'s own websiteId works unchanged.'),
    organizationId: entityId.optional().describe('Its organization, one the world declares (default: the first declared).'),
    domain: z.string().regex(DOMAIN_PATTERN, 'a lower-case host name such as shop.example.com').optional().describe('Its domain (default: generated).'),
    name: z.string().trim().min(1).max(200).optional().describe('Display name (default: generated).'),
    public: z.boolean().optional().describe('Whether anyone may query it without a key (default false).'),
    kind: z.enum(WEBSITE_KINDS).optional().describe('What the site is; picks rhythm, devices, sources and, when not declared, pages and events (default landing).'),
    dailySessions: z.number().int().min(0).max(MAX_DAILY_SESSIONS).optional().describe(`Mean sessions on an ordinary weekday, 0 to ${MAX_DAILY_SESSIONS} (default 500).`),
    timezone: z.string().refine(isTimeZone, 'an IANA time zone such as Europe/Berlin').optional().describe('The website\'s time zone, an IANA name: 60% of its visitors live in the countries of that zone (default: none, the usual worldwide mix).'),
    pages: z.array(worldPageSchema).min(1).max(MAX_DECLARED_PAGES).optional().describe('Its pages; default: the pages of its kind.'),
    events: z.array(worldEventSchema).min(1).max(MAX_DECLARED_EVENTS).optional().describe('Its custom events; default: the events of its kind.'),
    campaigns: z.array(worldCampaignSchema).min(1).max(MAX_DECLARED_CAMPAIGNS).optional().describe('Its UTM campaigns; default: those of its kind.'),
  })
  .strict();

/** See {@link worldWebsiteSchema}. */
export type WorldWebsite = z.infer<typeof worldWebsiteSchema>;

/**
 * The world a simulator serves instead of the seeded fixtures (`world` in the config file,
 * `createSimulator({ world })`): declared organizations, websites and API keys, used as given,
 * plus generated ones (`preset`, `generate`). Generated words come from faker, seeded by the
 * world seed and each entity's id.
 */
export const worldConfigSchema = z
  .object({
    seed: z.union([z.string().min(1).max(128), z.number().int()]).optional().describe('Seed of the generated words (default: the simulator seed).'),
    locale: z.enum(WORLD_LOCALES).optional().describe('Faker locale of generated names and domains (default en); also where half of a generated website\'s visitors live, the towns faker names in the locale\'s first country and their browsers\' language.'),
    preset: z.enum(['small', 'medium', 'large']).optional().describe('Generated organizations, websites, keys and users: small (2 / 10), medium (50 / 1,000), large (1,000 / 10,000).'),
    generate: worldCountsSchema.optional().describe('Counts of generated entities, instead of a preset.'),
    organizations: z.array(worldOrganizationSchema).max(MAX_WORLD_ORGANIZATIONS).optional(),
    websites: z.array(worldWebsiteSchema).max(MAX_WORLD_WEBSITES).optional(),
    keys: z.array(worldKeySchema).max(MAX_WORLD_KEYS).optional().describe('API keys of the declared organizations; secrets drawn from the seed unless given.'),
    users: z.array(worldUserSchema).max(MAX_DECLARED_RECORDS).optional().describe('Members of the declared organizations; an organization without one gets a generated member.'),
    links: z.array(worldLinkSchema).max(MAX_DECLARED_RECORDS).optional().describe('Short links of the declared organizations.'),
    monitors: z.array(worldMonitorSchema).max(MAX_DECLARED_RECORDS).optional().describe('Uptime monitors of the declared organizations.'),
    statusPages: z.array(worldStatusPageSchema).max(MAX_DECLARED_RECORDS).optional().describe('Status pages of the declared organizations.'),
    flags: z.array(worldFlagSchema).max(MAX_DECLARED_RECORDS).optional().describe('Feature flags of the declared organizations (without targeting rules).'),
  })
  .strict()
  .superRefine((world, ctx) => {
    const problem = (path: PropertyKey[], message: string): void => {
      ctx.addIssue({ code: 'custom', path, message });
    };
    if (world.preset !== undefined && world.generate !== undefined) problem(['generate'], 'give either preset or generate, not both');
    const counts = world.generate ?? (world.preset ? WORLD_PRESETS[world.preset] : undefined);
    const declaredOrgs = world.organizations ?? [];
    const declaredSites = world.websites ?? [];
    const generatedOrgs = counts?.organizations ?? 0;
    if (declaredOrgs.length + generatedOrgs > MAX_WORLD_ORGANIZATIONS) {
      problem(['organizations'], `${declaredOrgs.length + generatedOrgs} organizations: at most ${MAX_WORLD_ORGANIZATIONS} declared and generated together`);
    }
    const generatedSites = generatedOrgs * (counts?.websitesPerOrganization ?? 5);
    if (declaredSites.length + generatedSites > MAX_WORLD_WEBSITES) {
      problem(['websites'], `${declaredSites.length + generatedSites} websites: at most ${MAX_WORLD_WEBSITES} declared and generated together`);
    }
    const generatedKeys = generatedOrgs * (counts?.keysPerOrganization ?? 2);
    if ((world.keys?.length ?? 0) + generatedKeys > MAX_WORLD_KEYS) problem(['keys'], `${(world.keys?.length ?? 0) + generatedKeys} keys: at most ${MAX_WORLD_KEYS} declared and generated together`);

    const duplicates = (list: readonly { id: string }[], field: string): void => {
      const seen = new Map<string, number>();
      list.forEach((entity, i) => {
        const first = seen.get(entity.id);
        if (first !== undefined) problem([field, i, 'id'], `${entity.id} is already the id of ${field}[${first}]`);
        else seen.set(entity.id, i);
      });
    };
    duplicates(declaredOrgs, 'organizations');
    duplicates(declaredSites, 'websites');
    duplicates(world.keys ?? [], 'keys');
    const domains = new Map<string, number>();
    declaredSites.forEach((site, i) => {
      if (site.domain === undefined) return;
      const first = domains.get(site.domain);
      if (first !== undefined) problem(['websites', i, 'domain'], `${site.domain} is already the domain of websites[${first}]`);
      else domains.set(site.domain, i);
    });

    const orgIds = new Set(declaredOrgs.map((o) => o.id));
    const shapes = new Map<string, { shape: string; at: string }>();
    const siteOrg = new Map<string, string | undefined>();
    declaredSites.forEach((site, i) => {
      const org = site.organizationId ?? declaredOrgs[0]?.id;
      if (org === undefined) problem(['websites', i, 'organizationId'], 'declare an organization first: organizations: [{ "id": "org_mine" }]');
      else if (!orgIds.has(org)) problem(['websites', i, 'organizationId'], `no declared organization ${org}`);
      siteOrg.set(site.id, org);
      const paths = new Set<string>();
      site.pages?.forEach((page, j) => {
        if (paths.has(page.path)) problem(['websites', i, 'pages', j, 'path'], `${page.path} is listed twice`);
        paths.add(page.path);
      });
      const events = new Set<string>();
      site.events?.forEach((event, j) => {
        if (events.has(event.name)) problem(['websites', i, 'events', j, 'name'], `${event.name} is listed twice`);
        events.add(event.name);
        if (event.properties === undefined) return;
        const shape = JSON.stringify(event.properties);
        const first = shapes.get(event.name);
        if (first === undefined) shapes.set(event.name, { shape, at: `websites[${i}].events[${j}]` });
        else if (first.shape !== shape) problem(['websites', i, 'events', j, 'properties'], `${event.name} sends other properties at ${first.at}: one event name, one set of properties`);
      });
    });
    duplicates(world.users ?? [], 'users');
    duplicates(world.links ?? [], 'links');
    duplicates(world.monitors ?? [], 'monitors');
    world.users?.forEach((user, i) => {
      user.organizationIds.forEach((org, j) => {
        if (!orgIds.has(org)) problem(['users', i, 'organizationIds', j], `no declared organization ${org}`);
      });
    });
    const slugs = new Map<string, number>();
    duplicates(world.statusPages ?? [], 'statusPages');
    duplicates(world.flags ?? [], 'flags');
    const monitorOrg = new Map((world.monitors ?? []).map((m) => [m.id, m.organizationId]));
    world.statusPages?.forEach((page, i) => {
      page.monitorIds?.forEach((id, j) => {
        if (monitorOrg.get(id) !== page.organizationId) problem(['statusPages', i, 'monitorIds', j], `no declared monitor ${id} in ${page.organizationId}`);
      });
    });
    const pageSlugs = new Map<string, number>();
    world.statusPages?.forEach((page, i) => {
      const slug = page.slug ?? page.id.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
      const first = pageSlugs.get(slug);
      if (first !== undefined) problem(['statusPages', i, 'slug'], `${slug} is already the slug of statusPages[${first}]`);
      else pageSlugs.set(slug, i);
    });
    const flagKeys = new Map<string, number>();
    world.flags?.forEach((flag, i) => {
      const first = flagKeys.get(`${flag.organizationId}/${flag.key}`);
      if (first !== undefined) problem(['flags', i, 'key'], `${flag.key} is already the key of flags[${first}] in ${flag.organizationId}`);
      else flagKeys.set(`${flag.organizationId}/${flag.key}`, i);
    });
    for (const [field, list] of [['links', world.links ?? []], ['monitors', world.monitors ?? []], ['statusPages', world.statusPages ?? []], ['flags', world.flags ?? []]] as const) {
      list.forEach((item, i) => {
        if (!orgIds.has(item.organizationId)) problem([field, i, 'organizationId'], `no declared organization ${item.organizationId}`);
        if (item.websiteId === undefined) return;
        if (!siteOrg.has(item.websiteId)) problem([field, i, 'websiteId'], `no declared website ${item.websiteId}`);
        else if (siteOrg.get(item.websiteId) !== item.organizationId) problem([field, i, 'websiteId'], `${item.websiteId} belongs to ${siteOrg.get(item.websiteId)}, not to ${item.organizationId}`);
      });
    }
    world.links?.forEach((link, i) => {
      if (link.slug === undefined) return;
      const first = slugs.get(link.slug);
      if (first !== undefined) problem(['links', i, 'slug'], `${link.slug} is already the slug of links[${first}]`);
      else slugs.set(link.slug, i);
    });
    world.keys?.forEach((key, i) => {
      if (!orgIds.has(key.organizationId)) problem(['keys', i, 'organizationId'], `no declared organization ${key.organizationId}`);
      key.websiteIds?.forEach((id, j) => {
        if (!siteOrg.has(id)) problem(['keys', i, 'websiteIds', j], `no declared website ${id}`);
        else if (siteOrg.get(id) !== key.organizationId) problem(['keys', i, 'websiteIds', j], `${id} belongs to ${siteOrg.get(id)}, not to the key's organization ${key.organizationId}`);
      });
    });
  });

/** What a `world` section may say (before defaults). */
export type WorldConfigInput = z.input<typeof worldConfigSchema>;
/** A checked `world` section. */
export type WorldConfig = z.infer<typeof worldConfigSchema>;
