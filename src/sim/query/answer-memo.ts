import type { ProfileStore } from '../ingest/profile-store.js';
import type { EventStore } from '../ingest/event-store.js';
import type { IngestLedger } from '../ingest/ingest-ledger.js';
import type { QueryScope, QueryTypeDefinition } from './definition.js';
import { scopeKey, type ResultCache } from './result-cache.js';

/**
 * The serialized answers of repeated queries: for a remembered plan (the same body text, time
 * zone, profile and local day) over the same scope, in the same minute, with no data changed
 * since, the text of the answer after its request id, so a dashboard polling the same query
 * skips execution and serialization. Below it the result cache still decides every answer it
 * keeps; this memo only remembers what that gave, and forgets it whenever anything could
 * change it.
 */
export interface AnswerMemo {
  /** The text kept for `plan` over `scope` at `now`, if it is still exactly what answering again would give. */
  read(plan: MemoPlan, scope: QueryScope, now: number): string | undefined;
  /** The data as it stands: take it before computing an answer, and hand it to {@link write}. */
  mark(): DataMark;
  /**
   * Keeps `text` as the answer of `plan` over `scope` at `now`, computed from the data as it
   * stood at `since`. Only for an answer that raised no warning (a warning must be said again
   * on every request); plans that are not remembered, answers that read the clock beyond the
   * minute, and large texts are not kept.
   */
  write(plan: MemoPlan, scope: QueryScope, now: number, since: DataMark, text: string): void;
}

/**
 * Counters that move whenever data behind any answer changes: tracked events and ingested
 * records (only ever appended), identifies, and clears of the result cache (a website's traffic
 * size, a monitor's interval). Coarser than the result cache's per-website, per-day stamps: any
 * change anywhere forgets every kept answer, and the next request of each asks the result cache.
 */
export interface DataMark {
  readonly events: number;
  readonly ingested: number;
  readonly identifies: number;
  readonly clears: number;
}

/** What the memo reads of a query plan (`plan.ts`'s `QueryPlan` is one): the types of its parameters. */
export interface MemoPlan {
  readonly parameters: readonly { readonly type: Pick<QueryTypeDefinition, 'skipDateRange' | 'family'> }[];
}

/** What the memo watches for changes. */
export interface AnswerSources {
  readonly results: ResultCache;
  readonly trackedEvents: EventStore;
  readonly ingested: IngestLedger;
  readonly profiles: ProfileStore;
}

/** Scopes kept per plan: a dashboard sends one body for each of its websites. */
const SCOPES_PER_PLAN = 16;

/** Answers longer than this (characters) are not kept: the result cache already holds their pages. */
const MAX_KEPT_CHARS = 64 * 1024;

/**
 * Characters kept in all, at most: past it every kept answer is forgotten at once (the plans'
 * table cannot be walked). Answers of plans gone with their bodies still count until then.
 */
const MAX_TOTAL_CHARS = 4 * 1024 * 1024;

const MINUTE_MS = 60_000;

interface Kept extends DataMark {
  readonly minute: number;
  readonly text: string;
}

/**
 * Whether every parameter's answer is decided by its plan, its scope, the minute and the data:
 * not a type that skips the date range (computed afresh every time) nor a retention type (its
 * rows are observed up to the instant of the request).
 */
function isKeepable(plan: MemoPlan): boolean {
  if (!Object.isFrozen(plan)) return false;
  for (const parameter of plan.parameters) {
    if (parameter.type.skipDateRange || parameter.type.family === 'retention') return false;
  }
  return true;
}

/** Creates an empty memo over the data of one simulator state. */
export function createAnswerMemo(sources: AnswerSources): AnswerMemo {
  /** Plans are frozen and shared by the requests that send their body: the kept answers go when the plan does. */
  let kept = new WeakMap<MemoPlan, Map<string, Kept>>();
  let keptChars = 0;
  const unchangedSince = (mark: DataMark): boolean =>
    mark.events === sources.trackedEvents.size &&
    mark.ingested === sources.ingested.size &&
    mark.identifies === sources.profiles.changes &&
    mark.clears === sources.results.clears();
  return {
    read(plan, scope, now) {
      const byScope = kept.get(plan);
      if (byScope === undefined) return undefined;
      const entry = byScope.get(scopeKey(scope));
      return entry !== undefined && entry.minute === Math.floor(now / MINUTE_MS) && unchangedSince(entry) ? entry.text : undefined;
    },
    mark: () => ({
      events: sources.trackedEvents.size,
      ingested: sources.ingested.size,
      identifies: sources.profiles.changes,
      clears: sources.results.clears(),
    }),
    write(plan, scope, now, since, text) {
      if (text.length > MAX_KEPT_CHARS || !isKeepable(plan)) return;
      const key = scopeKey(scope);
      let byScope = kept.get(plan);
      if (byScope === undefined) kept.set(plan, (byScope = new Map()));
      const replaced = byScope.get(key);
      if (replaced !== undefined) keptChars -= replaced.text.length;
      else if (byScope.size >= SCOPES_PER_PLAN) {
        for (const entry of byScope.values()) keptChars -= entry.text.length;
        byScope.clear();
      }
      if (keptChars + text.length > MAX_TOTAL_CHARS) {
        kept = new WeakMap([[plan, (byScope = new Map())]]);
        keptChars = 0;
      }
      byScope.set(key, { ...since, minute: Math.floor(now / MINUTE_MS), text });
      keptChars += text.length;
    },
  };
}
