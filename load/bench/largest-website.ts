/**
 * The website the bench measures: the one with the most daily sessions in a simulator's
 * fixtures (`GET /__sim/fixtures`, or `sim.fixtures()`), and the secret of its organization's
 * read key (all websites, `read:data` only).
 */

/** The parts of the fixtures listing the choice reads. */
export interface BenchFixtures {
  readonly apiKeys: readonly { id: string; secret: string | null; organizationId: string; scopes: readonly string[]; websiteIds: readonly string[] | null }[];
  readonly websites: readonly { id: string; organizationId: string; baseDailySessions: number }[];
}

/** The largest website's id and its organization's read key (empty strings when there is none). */
export function findLargestWebsite(fixtures: BenchFixtures): { readonly websiteId: string; readonly organizationId: string; readonly readKey: string } {
  const site = [...fixtures.websites].sort((a, b) => b.baseDailySessions - a.baseDailySessions)[0];
  const key = fixtures.apiKeys.find(
    (k) => k.organizationId === site?.organizationId && k.websiteIds === null && k.scopes.length === 1 && k.scopes[0] === 'read:data' && k.id.endsWith('_read'),
  );
  return { websiteId: site?.id ?? '', organizationId: site?.organizationId ?? '', readKey: key?.secret ?? '' };
}
