import type { KeyLimits, LimitsReport, WindowUsageReport } from '../../contract/limits.js';
import type { ApiKeyRecord } from '../model/entities.js';
import type { SimState } from '../state.js';
import { CONCURRENCY_CAP, endpointRule, ingestRule, keyQuotaRule, type EndpointLimitName, type WindowRule } from './rules.js';
import type { WindowUsage } from './sliding-log.js';
import type { AdmissionStore } from './store.js';

/** Keys a limits report lists at most (keys can be created at run time). */
export const MAX_LISTED_KEYS = 100;

const ENDPOINTS: readonly EndpointLimitName[] = ['query:execute', 'query:compile'];

/** What {@link readLimits} reads: the state's keys, the store and the gate, at one instant. */
export interface LimitsInput {
  readonly state: SimState;
  readonly store: AdmissionStore;
  /** The in-flight counts (the gate, or a shared store's leases). */
  readonly gate: { held(fingerprint: string): number | Promise<number>; total(): number | Promise<number> };
  readonly now: number;
}

function keyStatus(key: ApiKeyRecord, now: number): KeyLimits['status'] {
  if (!key.enabled) return 'disabled';
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'expired';
  return 'active';
}

/** The windows a key's requests are checked against: the quota first (when enabled), then the others. */
function windowsOf(key: ApiKeyRecord): { quota: WindowRule | null; others: { name: string; rule: WindowRule }[] } {
  const principal = { kind: 'apikey', ip: '', key } as const;
  return {
    quota: keyQuotaRule(key),
    others: [
      ...ENDPOINTS.map((name) => ({ name, rule: endpointRule(name, principal, `apikey:${key.id}`) })),
      { name: 'track', rule: ingestRule(key.id, null, '') },
    ],
  };
}

/**
 * Every API key's windows and in-flight count at `now`, read from the admission store without
 * recording anything (the store's optional `peek`; synchronous or not). A store that cannot be
 * read (no `peek`, or a failure) leaves the window figures null and says so: the report never
 * guesses. At most {@link MAX_LISTED_KEYS} keys, in creation order.
 */
export async function readLimits(input: LimitsInput): Promise<LimitsReport> {
  const { state, store, gate, now } = input;
  const all = [...state.keysById.values()];
  const listed = all.slice(0, MAX_LISTED_KEYS);
  let readable = typeof store.peek === 'function';

  const usage = async (name: string, rule: WindowRule): Promise<WindowUsageReport> => {
    const base = { rule: rule.rule, name, id: rule.id, limit: rule.limit, windowMs: rule.windowMs };
    let read: WindowUsage | undefined;
    if (readable && store.peek) {
      try {
        read = await store.peek(rule.id, now, rule.limit, rule.windowMs);
      } catch {
        readable = false;
      }
    }
    return read ? { ...base, used: read.held, remaining: read.remaining, reset: read.reset } : { ...base, used: null, remaining: null, reset: null };
  };

  const keys: KeyLimits[] = [];
  for (const key of listed) {
    const { quota, others } = windowsOf(key);
    keys.push({
      id: key.id,
      name: key.name,
      status: keyStatus(key, now),
      inFlight: await gate.held(key.keyHash),
      quota: quota ? await usage('quota', quota) : null,
      windows: await Promise.all(others.map(({ name, rule }) => usage(name, rule))),
    });
  }
  const blank = (w: WindowUsageReport): WindowUsageReport => ({ ...w, used: null, remaining: null, reset: null });
  return {
    now,
    inFlight: { total: await gate.total(), cap: CONCURRENCY_CAP },
    storeReadable: readable,
    // A store that failed part-way: no figure of this read is trusted.
    keys: readable ? keys : keys.map((k) => ({ ...k, quota: k.quota && blank(k.quota), windows: k.windows.map(blank) })),
    omittedKeys: all.length - listed.length,
  };
}
