import type { EventReader } from '../../ingest/event-store.js';
import type { IngestLedger } from '../../ingest/ingest-ledger.js';
import type { ProfileReader } from '../../ingest/profile-store.js';

/**
 * What `owners` (a scope's, `scope-owners.ts`) hold of the data a simulator received itself, on
 * any day: their tracked events, their ingested records and the identifies on them, summed. Each
 * only grows, so the sum is unchanged exactly when none moved; 0 while the scope's answers are
 * computed from generated traffic alone (a few read such data whatever their range, as
 * mcp_summary's `tracked`).
 */
export function countOwnData(
  owners: readonly string[],
  events: Pick<EventReader, 'countOwned'>,
  ingested: Pick<IngestLedger, 'countOwned'>,
  profiles: Pick<ProfileReader, 'version'>,
): number {
  return events.countOwned(owners) + ingested.countOwned(owners) + profiles.version(owners);
}
