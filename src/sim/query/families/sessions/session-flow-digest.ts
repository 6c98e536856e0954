import type { Derivation } from '../../../traffic-cache.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { DAY_DIGEST_PREFIX } from '../../readers/digest-days.js';
import { createSlots } from '../../readers/slots.js';

/**
 * The moves from one page to another of one website's generated sessions of one UTC day, as
 * `session_flow` counts them without filters: by transition key (`from * 65,536 + to`, the path
 * codes of two consecutive pageviews with different paths), in the order the day's sessions
 * first show them, how many moves and how many sessions made one. Counts are of samples
 * (multiply by `weight`).
 */
export interface SessionFlowDigest {
  /** The sample weight of the day's sessions. */
  readonly weight: number;
  readonly keys: Float64Array;
  readonly transitions: Uint32Array;
  readonly sessions: Uint32Array;
}

/**
 * Calls `count` for each move of session `index` of `batch` whose pages both pass `passes`
 * (pages that do not are skipped, so the move joins the pages on either side), with the
 * transition key: what `session_flow` counts, session by session or into a day's digest.
 */
export function visitTransitions(batch: SessionBatch, index: number, passes: (path: number) => boolean, count: (key: number) => void): void {
  let previous = -1;
  const to = batch.pageOffsets[index + 1] as number;
  for (let p = batch.pageOffsets[index] as number; p < to; p++) {
    const path = batch.pagePaths[p] as number;
    if (!passes(path)) continue;
    if (previous >= 0 && previous !== path) count(previous * 65_536 + path);
    previous = path;
  }
}

const EVERY_PATH = (): boolean => true;

function digestDay(batch: SessionBatch): SessionFlowDigest {
  const transitions: number[] = [];
  const sessions: number[] = [];
  const lastSession: number[] = [];
  const keys = createSlots<number>(() => {
    transitions.push(0);
    sessions.push(0);
    lastSession.push(-1);
  });
  for (let i = 0; i < batch.count; i++) {
    visitTransitions(batch, i, EVERY_PATH, (key) => {
      const slot = keys.slotOf(key);
      transitions[slot] = (transitions[slot] as number) + 1;
      if (lastSession[slot] !== i) {
        lastSession[slot] = i;
        sessions[slot] = (sessions[slot] as number) + 1;
      }
    });
  }
  return { weight: batch.weight, keys: Float64Array.from(keys.keys), transitions: Uint32Array.from(transitions), sessions: Uint32Array.from(sessions) };
}

/** The per-day digest of page-to-page moves: shared with the traffic it is derived from. */
export const SESSION_FLOW_DIGEST: Derivation<SessionFlowDigest> = { name: `${DAY_DIGEST_PREFIX}session-flow`, derive: ({ sessions }) => digestDay(sessions) };
