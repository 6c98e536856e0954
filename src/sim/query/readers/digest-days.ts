import type { Website } from '../../model/entities.js';
import { DAY_MS } from '../../model/world.js';
import type { QueryTypeDefinition, RunContext } from '../engine/definition.js';
import { DIGEST_DAY_WORK, GENERATED_RECORD_WORK, YIELD_RECORDS, type PassSteps } from '../engine/pass-steps.js';
import type { Derivation } from '../../traffic-cache.js';
import { ingestedSessions } from './ingested-sessions.js';
import type { SessionVisit } from './session-visits.js';

/** The name of every per-day digest derivation starts with this. */
export const DAY_DIGEST_PREFIX = 'digest:';

/** Whether `type` reads per-day digests when it may (one of its `derives` is a digest). */
export function foldsDayDigests(type: Pick<QueryTypeDefinition, 'derives'>): boolean {
  return type.derives.some((source) => typeof source !== 'function' && source.name.startsWith(DAY_DIGEST_PREFIX));
}

/** What {@link walkDigestDaysSteps} hands over, in the order a scan of the range visits sessions. */
export interface DigestWalk {
  /** A part of a day the range does not cover whole: visit its sessions in [fromMs, toMs] (`visitSessions`). */
  part(fromMs: number, toMs: number): void;
  /**
   * A UTC day the range covers whole: fold in its generated sessions' per-day aggregate, then
   * call `ingested`. It may return the work it did, in records read ({@link PassSteps}; when it
   * returns none, {@link DIGEST_DAY_WORK}).
   */
  whole(website: Website, day: number, ingested: (visit: (session: SessionVisit) => void) => void): number | void;
}

/**
 * Whether a run may read per-day aggregates of generated sessions instead of the sessions: one
 * website (visitor keys are then the batch's own visitor ids) and no filter of any kind.
 */
export function allowsDigests(ctx: RunContext): boolean {
  const { filters, scope } = ctx;
  return scope.kind === 'websites' && scope.websites.length === 1 && filters.masks.size === 0 && filters.tests.length === 0 && !filters.excludesAll;
}

/**
 * Walks the range of a run that {@link allowsDigests} day by day, in a scan's order: the edge
 * parts of days it cuts through as parts, the days it covers whole as whole days, each with its
 * ingested sessions (visited after the generated ones, as a scan does). A run that folds a
 * whole day's aggregate exactly as it would have folded the day's sessions one by one answers
 * the same rows, at a cost that follows the days and the aggregate's rows, not the sessions.
 * False, having walked nothing, when the run does not allow digests or its range is empty.
 * In pieces: yields each day's work ({@link DigestWalk.whole}'s, else {@link DIGEST_DAY_WORK}).
 */
export function* walkDigestDaysSteps(ctx: RunContext, walk: DigestWalk, fromMs = ctx.fromMs, toMs = ctx.toMs): PassSteps<boolean> {
  if (!allowsDigests(ctx) || toMs < fromMs || ctx.scope.kind !== 'websites') return false;
  const website = ctx.scope.websites[0] as Website;
  const firstDay = Math.floor(fromMs / DAY_MS);
  const lastDay = Math.floor(toMs / DAY_MS);
  const ingested =
    (day: number) =>
    (visit: (session: SessionVisit) => void): void => {
      const batch = ingestedSessions(ctx.ingested, website, day);
      if (!batch) return;
      const session: SessionVisit = { batch, index: 0, matched: 0, visitorKey: 0, details: () => batch.ingested?.details as ReturnType<SessionVisit['details']> };
      for (let i = 0; i < batch.count; i++) {
        session.index = i;
        session.matched = (batch.pageOffsets[i + 1] as number) - (batch.pageOffsets[i] as number);
        session.visitorKey = batch.visitor[i] as number;
        visit(session);
      }
    };
  let unreported = 0;
  for (let day = firstDay; day <= lastDay; day++) {
    const dayStart = day * DAY_MS;
    const dayEnd = dayStart + DAY_MS - 1;
    if (fromMs <= dayStart && toMs >= dayEnd) {
      unreported += walk.whole(website, day, ingested(day)) ?? DIGEST_DAY_WORK;
    } else {
      walk.part(Math.max(fromMs, dayStart), Math.min(toMs, dayEnd));
      unreported += DIGEST_DAY_WORK;
    }
    if (unreported >= YIELD_RECORDS) {
      yield unreported;
      unreported = 0;
    }
  }
  if (unreported > 0) yield unreported;
  return true;
}

/**
 * Folds a day's digest with `fold` and returns the work of a walk's whole day ({@link DigestWalk.whole}):
 * the fold, and what deriving the digest again cost when it was not kept, as the traffic cache
 * counts it (the day's sessions are not read again to weigh it).
 */
export function foldDigestDay<T>(ctx: RunContext, digest: Derivation<T>, website: Website, day: number, fold: (value: T) => void): number {
  const before = ctx.traffic.generatedWork();
  fold(ctx.traffic.derived(digest, website, day));
  return DIGEST_DAY_WORK + (ctx.traffic.generatedWork() - before) * GENERATED_RECORD_WORK;
}
