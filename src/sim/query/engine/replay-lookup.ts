import type { Filter } from '../../../contract/query-request.js';
import type { TimeUnit } from './dates.js';
import type { QueryScope, QueryTypeDefinition } from './definition.js';

/** The rows a recording holds for one parameter, and where they came from. */
export interface RecordedAnswer {
  /** The entry's index in the recording. */
  readonly entry: number;
  /** The rows as a JSON array, serialized once. */
  readonly rowsJson: string;
}

/** What decides a parameter's rows, as the engine asks a recording for them. */
export interface ReplayAsk {
  readonly type: QueryTypeDefinition;
  readonly scope: QueryScope;
  /** The range as planned (epoch ms, inclusive), before the cut at now. */
  readonly fromMs: number;
  readonly toMs: number;
  readonly unit: TimeUnit;
  /** The canonical `?timezone=` (UTC when none). */
  readonly timezone: string;
  readonly filters: readonly Filter[];
  readonly limit: number | undefined;
  readonly page: number;
  readonly sortBy: string | undefined;
  readonly sortOrder: 'asc' | 'desc' | undefined;
}

/**
 * A recording, indexed by what decides a parameter's rows: type, scope, range, buckets, time
 * zone, filters, limit, page and order (`replay-index.ts` builds it). Built once; never changes.
 */
export interface ReplayIndex {
  /** The entries it holds. */
  readonly size: number;
  /** Where the recording came from and when: `http://… at 2025-06-02T12:00:00Z`. */
  readonly source: string;
  /** What identifies the recording (target, time, entries), for processes that must agree on it. */
  readonly fingerprint: string;
  /** The recorded rows of a parameter asked exactly as a recorded one, else undefined. */
  find(ask: ReplayAsk): RecordedAnswer | undefined;
}
