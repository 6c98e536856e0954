import { createDistinct } from './aggregate.js';

/** Distinct sessions and visitors of one group, already multiplied by sample weights. */
export interface DistinctCounts {
  sessions: number;
  visitors: number;
}

/** Counts distinct sessions and visitors per group key, as `uniq(session_id)` and `uniq(anonymous_id)` do. */
export interface DistinctGroups<K> {
  /**
   * Counts session `session` (a serial unique in the scan) of visitor `visitorKey` in group `key`,
   * once per group however often it is added; `weight` is the real sessions the sample stands for.
   * A session has one visitor: every add of a session names the same `visitorKey`.
   */
  add(key: K, session: number, visitorKey: number, weight: number): void;
  readonly groups: ReadonlyMap<K, DistinctCounts>;
}

/** {@link DistinctGroups} that also takes counts made elsewhere, such as a day's digest. */
export interface CountedDistinctGroups<K> extends DistinctGroups<K> {
  /**
   * Counts `sessions` sessions of group `key`, none of them added before, each standing for
   * `weight`, and their distinct visitors `visitors[from..to)`.
   */
  addCounted(key: K, sessions: number, visitors: ArrayLike<number>, from: number, to: number, weight: number): void;
}

/** Creates an empty {@link DistinctGroups}. */
export function createDistinctGroups<K>(): CountedDistinctGroups<K> {
  const groups = new Map<K, DistinctCounts>();
  const indexes = new Map<K, number>();
  const newSession = createDistinct();
  const newVisitor = createDistinct();
  // A session's pageviews come together: the same group and session again adds nothing.
  let lastKey: K | undefined;
  let lastSession = Number.NaN;
  const groupOf = (key: K): [DistinctCounts, number] => {
    let counts = groups.get(key);
    let index = indexes.get(key);
    if (!counts || index === undefined) {
      counts = { sessions: 0, visitors: 0 };
      index = indexes.size;
      groups.set(key, counts);
      indexes.set(key, index);
    }
    return [counts, index];
  };
  return {
    add(key, session, visitorKey, weight) {
      if (session === lastSession && key === lastKey) return;
      lastSession = session;
      lastKey = key;
      const [counts, index] = groupOf(key);
      if (newSession(index, session)) counts.sessions += weight;
      if (newVisitor(index, visitorKey)) counts.visitors += weight;
    },
    addCounted(key, sessions, visitors, from, to, weight) {
      const [counts, index] = groupOf(key);
      counts.sessions += sessions * weight;
      for (let v = from; v < to; v++) if (newVisitor(index, visitors[v] as number)) counts.visitors += weight;
    },
    groups,
  };
}

/** Rows of `groups` ordered by sessions descending, then by name (ties stay stable). */
export function bySessions<T extends { sessions: number; name: string }>(a: T, b: T): number {
  return b.sessions - a.sessions || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
