import type { FixturesListing } from '../../contract/fixtures.js';
import { hashPresented } from '../auth/authenticate.js';
import type { SimState } from '../state.js';
import { formatIsoOrNull } from '../text.js';
import { pageOf, type ListPage } from '../routing/list-page.js';

const iso = formatIsoOrNull;

/** A record with its epoch-ms `…At` fields as ISO strings, as the API answers them. */
function withIsoTimes<T extends { id: string }>(record: T): { id: string } & Record<string, unknown> {
  const out: { id: string } & Record<string, unknown> = { ...(record as { id: string } & Record<string, unknown>) };
  for (const [name, value] of Object.entries(out)) {
    if (name.endsWith('At') && typeof value === 'number') out[name] = iso(value);
  }
  return out;
}

/**
 * The seeded world as the harness reveals it, secrets included: organizations, websites, users
 * with their session tokens, API keys with their secrets and purposes, links, monitors, status
 * pages and feature flags, as they stand now, and the payment webhooks of each organization
 * (their paths and signing secrets).
 * Keys created at run time appear without a secret (it is shown only at creation), and so do
 * fixture keys whose secret was rotated; signed-out fixture sessions show no token.
 * With `page`, every list holds that page only (a large world is read in pages); `totals`
 * counts each list in full.
 */
export function listFixtures(state: SimState, page?: ListPage): FixturesListing {
  const some = <T>(values: Iterable<T>): T[] => (page ? pageOf([...values], page) : [...values]);
  const { world } = state;
  const secrets = new Map(world.fixtureKeys.map((k) => [k.id, k]));
  // A secret or token is revealed only while it is still the live one (not rotated away,
  // deleted, or signed out).
  const live = (secret: string): string => hashPresented(secret, state.hashMemo);
  const liveSecret = (id: string): string | null => {
    const secret = secrets.get(id)?.secret;
    return secret !== undefined && state.keysByHash.get(live(secret))?.id === id ? secret : null;
  };
  const tokens = new Map(
    world.fixtureSessions.filter((s) => state.sessionsByHash.get(live(s.token)) === s.userId).map((s) => [s.userId, s.token]),
  );
  const totals = {
    organizations: state.organizations.size,
    websites: state.websites.size,
    users: state.users.size,
    apiKeys: state.keysById.size,
    links: state.links.size,
    monitors: state.monitors.size,
    statusPages: state.manage.statusPages.size,
    flags: state.manage.flags.size,
    revenueConfigs: state.revenueConfigs.size,
  };
  return {
    seed: world.seed,
    organizations: some(state.organizations.values()).map(withIsoTimes),
    websites: some(state.websites.values()).map(withIsoTimes),
    users: some(state.users.values()).map((u) => ({ ...u, sessionToken: tokens.get(u.id) ?? null })),
    apiKeys: some(state.keysById.values()).map((k) => ({
      id: k.id,
      name: k.name,
      purpose: secrets.get(k.id)?.purpose ?? null,
      secret: liveSecret(k.id),
      start: k.start,
      organizationId: k.organizationId,
      scopes: k.scopes,
      websiteIds: k.websiteIds,
      enabled: k.enabled,
      expiresAt: iso(k.expiresAt),
      revokedAt: iso(k.revokedAt),
      rateLimitEnabled: k.rateLimitEnabled,
      rateLimitMax: k.rateLimitMax,
      rateLimitTimeWindow: k.rateLimitTimeWindow,
    })),
    links: some(state.links.values()).map(withIsoTimes),
    monitors: some(state.monitors.values()).map(withIsoTimes),
    statusPages: some(state.manage.statusPages.values()).map(withIsoTimes),
    flags: some(state.manage.flags.values()).map(withIsoTimes),
    revenueConfigs: some(state.revenueConfigs.values()).map((config) => ({
      organizationId: config.organizationId,
      websiteId: config.websiteId,
      webhookHash: config.webhookHash,
      stripeWebhookSecret: config.stripeWebhookSecret,
      paddleWebhookSecret: config.paddleWebhookSecret,
      stripeWebhookPath: `/webhooks/stripe/${encodeURIComponent(config.webhookHash)}`,
      paddleWebhookPath: `/webhooks/paddle/${encodeURIComponent(config.webhookHash)}`,
    })),
    totals,
  };
}
