import type { ProfileStore } from '../../ingest/profile-store.js';
import type { EventStore } from '../../ingest/event-store.js';
import type { IngestLedger } from '../../ingest/ingest-ledger.js';
import type { QueryScope, QueryTypeDefinition } from './definition.js';
import { scopeKey, type ResultCache } from './result-cache.js';
import { ownersOf } from './scope-owners.js';
import { countOwnData } from './own-data.js';

/**
 * The serialized answers of repeated queries: for a remembered plan (the same body text, time
 * zone, profile and local day) over the same scope, with its data ending at the same instant and none of the
 * scope's data changed since, the text of the answer after its request id, so a dashboard
 * polling the same query skips execution and serialization. Below it the result cache still
 * decides every answer it keeps; this memo only remembers what that gave, and forgets it
 * whenever anything could change it.
 */
export interface AnswerMemo {
  /**
   * The lookup of `plan` over `scope` with its data ending at `cutMs` (`data-cut.ts`): its `text` is the kept answer while that is
   * still exactly what answering again would give. Undefined for plans whose answers are never
   * kept (types computed afresh each time, retention). Taken before computing an answer, it
   * marks the data the answer is computed from: hand it to {@link write}.
   */
  read(plan: MemoPlan, scope: QueryScope, cutMs: number, owners?: readonly string[]): MemoLookup | undefined;
  /**
   * Keeps `text` as the answer of the lookup's plan and scope. Only for an answer that raised
   * no warning (a warning must be said again on every request); large texts are not kept.
   */
  write(lookup: MemoLookup, text: string): void;
}

/** One read of the memo (see {@link AnswerMemo.read}). */
export interface MemoLookup {
  readonly text: string | undefined;
  readonly plan: MemoPlan;
  /** The scope's key ({@link scopeKey}), made once per request. */
  readonly key: string;
  /** Where the answer's data ends ({@link dataCutOf}): moves each minute, and when a record lands in the current one. */
  readonly cut: number;
  readonly mark: DataMark;
}

/**
 * The data behind a scope's answers as it stands: the tracked events and ingested records of
 * the scope's owners (only ever appended) and the identifies on its websites, summed (each
 * only grows, so the sum is unchanged exactly when none moved); and the clears of the result
 * cache (a website's traffic size, a monitor's interval). The same owners and counts the
 * result cache's per-day stamps read (`execute.ts`), over all days: an event on another
 * website leaves a kept answer standing.
 */
export interface DataMark {
  readonly owned: number;
  readonly clears: number;
}

/** What the memo reads of a query plan (`plan.ts`'s `QueryPlan` is one): the types of its parameters. */
export interface MemoPlan {
  readonly parameters: readonly { readonly type: Pick<QueryTypeDefinition, 'skipDateRange' | 'observedAtNow'> }[];
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

interface Kept {
  readonly mark: DataMark;
  readonly cut: number;
  readonly text: string;
}

/**
 * Whether every parameter's answer is decided by its plan, its scope, the cut and the data:
 * not a type that skips the date range (computed afresh every time) nor a retention type (its
 * rows are observed up to the instant of the request).
 */
function isKeepable(plan: MemoPlan): boolean {
  if (!Object.isFrozen(plan)) return false;
  for (const parameter of plan.parameters) {
    if (parameter.type.skipDateRange || parameter.type.observedAtNow) return false;
  }
  return true;
}

/** Creates an empty memo over the data of one simulator state. */
export function createAnswerMemo(sources: AnswerSources): AnswerMemo {
  /** Plans are frozen and shared by the requests that send their body: the kept answers go when the plan does. */
  let kept = new WeakMap<MemoPlan, Map<string, Kept>>();
  let keptChars = 0;
  const markOf = (owners: readonly string[]): DataMark => {
    return {
      owned: countOwnData(owners, sources.trackedEvents, sources.ingested, sources.profiles),
      clears: sources.results.clears(),
    };
  };
  return {
    read(plan, scope, cut, owners = ownersOf(scope)) {
      if (!isKeepable(plan)) return undefined;
      const key = scopeKey(scope);
      const mark = markOf(owners);
      const entry = kept.get(plan)?.get(key);
      const fresh = entry !== undefined && entry.cut === cut && entry.mark.owned === mark.owned && entry.mark.clears === mark.clears;
      return { text: fresh ? entry.text : undefined, plan, key, cut, mark };
    },
    write({ plan, key, cut, mark }, text) {
      if (text.length > MAX_KEPT_CHARS) return;
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
      byScope.set(key, { mark, cut, text });
      keptChars += text.length;
    },
  };
}
