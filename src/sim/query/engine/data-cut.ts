import type { EventReader } from '../../ingest/event-store.js';
import type { IngestLedger } from '../../ingest/ingest-ledger.js';
import type { QueryScope } from './definition.js';
import { ownersOf } from './scope-owners.js';

const MINUTE_MS = 60_000;

/** The last instant of the minute before the one holding `now`: where generated data ends. */
export function minuteCutOf(now: number): number {
  return Math.floor(now / MINUTE_MS) * MINUTE_MS - 1;
}

/**
 * The instant a scope's answers end at `now`, inclusive. Generated traffic ends at the last
 * whole minute before now, so one answer per minute can be cached; but a record accepted in the
 * current minute (by `/track` or any ingestion route) must show at once, so when the scope's
 * owners hold one between that minute and now, the data runs to the latest such record. Never
 * after now: a record stamped ahead (within the accepted skew) shows once the clock reaches it.
 * The cut moves only when a record lands or a minute passes, so cached answers stay valid
 * between them.
 */
export function dataCutOf(scope: QueryScope, now: number, events: EventReader, ledger: IngestLedger, owners: readonly string[] = ownersOf(scope)): number {
  const minuteCut = minuteCutOf(now);
  if (scope.kind !== 'websites') return minuteCut;
  let latest = events.latestWithin(owners, minuteCut + 1, now);
  if (ledger.size > 0) latest = Math.max(latest, ledger.latestWithin(owners, minuteCut + 1, now));
  return latest > minuteCut ? latest : minuteCut;
}
