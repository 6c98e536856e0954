import type { Derivation, TrafficReader } from '../../traffic-cache.js';
import type { Dictionaries } from '../../model/traffic.js';
import { DAY_MS } from '../../model/world.js';
import { minuteCutOf } from './data-cut.js';
import { derivationOf, type QueryScope } from './definition.js';
import type { ParameterPlan, QueryPlan } from './plan.js';
import type { EventReader } from '../../ingest/event-store.js';
import { PASS_PIECE_RECORDS, TRACKED_EVENT_WORK } from './pass-steps.js';

/**
 * Website-days a query may cover and still be answered in one synchronous piece (the hot path:
 * no promise, no yield). Above it, each parameter's days are generated in pieces first.
 */
export const PREFETCH_THRESHOLD = 64;

/**
 * Website-days generated between two yields: a day of the largest website, or its per-day
 * digests, take up to about 6 ms, so a piece holds the event loop about 50 ms at most (days
 * already cached do not count; a day's derived records count as one more day each).
 */
export const PREFETCH_PIECE = 8;

/**
 * Work that also ends a piece, in session samples generated (about 0.4 µs each): a derivation
 * counts its day's samples times its cost ({@link Derivation.cost}), so the costliest ones (the
 * vitals, the engagement pages' digest) make pieces of two or three days of the largest website.
 */
export const PREFETCH_PIECE_WORK = 25_000;

/** UTC days a website parameter's run reads from generated sessions, cut at the last whole minute before `now` as the run is; null for none. */
function dayRange(parameter: ParameterPlan, now: number): [number, number] | null {
  if (parameter.type.target !== 'website') return null;
  return passDays(parameter, now);
}

/** UTC days a parameter's run reads, cut at the last whole minute before `now` as the run is; null for none. */
function passDays(parameter: ParameterPlan, now: number): [number, number] | null {
  if (parameter.type.skipDateRange) return null;
  const toMs = Math.min(parameter.toMs, minuteCutOf(now));
  if (toMs < parameter.fromMs) return null;
  return [Math.floor(parameter.fromMs / DAY_MS), Math.floor(toMs / DAY_MS)];
}

/** Website-days one parameter's run reads from generated sessions. */
export function prefetchSize(parameter: ParameterPlan, scope: QueryScope, now: number): number {
  if (scope.kind !== 'websites') return 0;
  const range = dayRange(parameter, now);
  return range ? (range[1] - range[0] + 1) * scope.websites.length : 0;
}

/** Whether a parameter covers enough days for its days to be generated in pieces before its pass. */
function isLongRange(parameter: ParameterPlan, scope: QueryScope, now: number): boolean {
  if (scope.kind === 'websites') return prefetchSize(parameter, scope, now) >= PREFETCH_THRESHOLD;
  const range = passDays(parameter, now);
  return range !== null && range[1] - range[0] + 1 >= PREFETCH_THRESHOLD;
}

/**
 * Tracked events (`POST /track`) in a parameter's range from which a type that reads them is
 * answered in pieces: about a piece of its pass ({@link PASS_PIECE_RECORDS} records, each event
 * counting {@link TRACKED_EVENT_WORK}).
 */
export const LONG_TRACKED_EVENTS = PASS_PIECE_RECORDS / TRACKED_EVENT_WORK;

/**
 * Whether a parameter is long enough to be answered in pieces: its days generated, then its
 * pass, in pieces. A link's clicks and a monitor's checks are not generated before the pass:
 * their scans count what they generate in the pass's own pieces. A type that reads tracked
 * events is long too when its scope holds {@link LONG_TRACKED_EVENTS} of them on the days of
 * its range (up to now for a type observed at now, which reads past its range), counted a day
 * at a time, never an event at a time, however short the range.
 */
export function isLongParameter(parameter: ParameterPlan, scope: QueryScope, now: number, tracked: TrackedOwners): boolean {
  if (isLongRange(parameter, scope, now)) return true;
  if (!parameter.type.readsTrackedEvents) return false;
  // A type observed at now (retention) reads the events after its range too, up to now.
  const toMs = parameter.type.observedAtNow ? Math.max(parameter.toMs, now) : parameter.toMs;
  return tracked.events.countTouching(tracked.owners, parameter.fromMs, toMs) >= LONG_TRACKED_EVENTS;
}

/** The tracked events of a scope's owners (its websites', and an organization's own), as the query route already listed them. */
export interface TrackedOwners {
  readonly events: Pick<EventReader, 'countTouching'>;
  readonly owners: readonly string[];
}

/** Whether any parameter of the plans is long enough to be answered in pieces. */
export function needsPieces(plans: readonly QueryPlan[], scope: QueryScope, now: number, tracked: TrackedOwners): boolean {
  return plans.some((plan) => plan.parameters.some((parameter) => isLongParameter(parameter, scope, now, tracked)));
}

/**
 * Generates the session days a parameter will read into the traffic cache, and the records its
 * type derives from them (`derives`: errors, vitals … of those days and the day before), website
 * by website and day by day, awaiting `yieldToEventLoop` after every {@link PREFETCH_PIECE} it
 * had to generate, or {@link PREFETCH_PIECE_WORK} of work if sooner, and once more at the end,
 * so a long range is generated while other requests run and the parameter's pass then reads
 * cached days only: its piece is the pass itself (or its pieces, for a type with steps,
 * `pass-steps.ts`). A day already cached costs a lookup and neither counts nor yields. Does
 * nothing under {@link PREFETCH_THRESHOLD}. It changes no answer: a day evicted meanwhile is
 * generated again by the pass.
 *
 * Invariant: `traffic` is the reader the pass will use (a pinned one), so nothing generated
 * from a website read before a change fills the shared cache.
 */
export async function prefetchTraffic(
  parameter: ParameterPlan,
  scope: QueryScope,
  traffic: TrafficReader,
  dictionaries: Dictionaries,
  now: number,
  yieldToEventLoop: () => Promise<void>,
): Promise<void> {
  if (scope.kind !== 'websites' || !isLongRange(parameter, scope, now)) return;
  const [first, last] = dayRange(parameter, now) as [number, number];
  const derivations: Derivation<unknown>[] = parameter.type.derives.map((source) => derivationOf(source, dictionaries));
  // Derived records of a session that began the day before may fall on the first day: their passes read that day too.
  const from = derivations.length > 0 ? first - 1 : first;
  let piece = 0;
  let work = 0;
  const generated = async (samples: number): Promise<void> => {
    work += samples;
    if (++piece < PREFETCH_PIECE && work < PREFETCH_PIECE_WORK) return;
    piece = 0;
    work = 0;
    await yieldToEventLoop();
  };
  for (const website of scope.websites) {
    for (let day = from; day <= last; day++) {
      if (!traffic.hasSessions(website, day)) {
        await generated(traffic.sessions(website, day).count);
      }
      for (const derivation of derivations) {
        if (traffic.hasDerived(derivation, website, day)) continue;
        // Weighed as the cache counts it: a pinned reader after a clear keeps nothing, so reading the day's sessions again to weigh it would generate them again.
        const before = traffic.generatedWork();
        traffic.derived(derivation, website, day);
        await generated(traffic.generatedWork() - before);
      }
    }
  }
  if (piece > 0) await yieldToEventLoop();
}
