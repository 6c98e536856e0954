/**
 * The AI-traffic setup checks `POST /ai-traffic` recorded: a hit whose user agent carries
 * `DatabuddySetupCheck/<nonce>` proves the website's middleware forwards agent requests, and
 * `GET /ai-traffic/setup-check/:websiteId/:nonce` asks whether it arrived. Each check lives
 * {@link SETUP_CHECK_TTL_MS} of simulator time (the service keeps a Redis key for 120 s).
 *
 * Bounded: at most `max` checks; a new one past it first drops the expired ones, then the oldest.
 */

/** How long a recorded setup check is remembered: 120 s. */
export const SETUP_CHECK_TTL_MS = 120_000;

/** Default bound on remembered checks. */
export const DEFAULT_SETUP_CHECKS_MAX = 10_000;

/** The checks of one simulator run. */
export interface SetupCheckStore {
  /** Checks remembered, expired ones included until they are dropped. */
  readonly size: number;
  /** Records a check of a website's nonce at `now` (a repeat renews it). */
  record(websiteId: string, nonce: string, now: number): void;
  /** Whether a check of the nonce was recorded within the last 120 s at `now`. */
  recorded(websiteId: string, nonce: string, now: number): boolean;
}

/** Creates an empty store of setup checks. */
export function createSetupCheckStore(max = DEFAULT_SETUP_CHECKS_MAX): SetupCheckStore {
  /** `<website id>\n<nonce>` → expiry, epoch ms, oldest recorded first. */
  const checks = new Map<string, number>();
  const keyOf = (websiteId: string, nonce: string): string => `${websiteId}\n${nonce}`;
  return {
    get size() {
      return checks.size;
    },
    record(websiteId, nonce, now) {
      const key = keyOf(websiteId, nonce);
      checks.delete(key);
      if (checks.size >= max) {
        for (const [k, expires] of checks) if (expires <= now) checks.delete(k);
        if (checks.size >= max) checks.delete(checks.keys().next().value as string);
      }
      checks.set(key, now + SETUP_CHECK_TTL_MS);
    },
    recorded(websiteId, nonce, now) {
      const expires = checks.get(keyOf(websiteId, nonce));
      return expires !== undefined && now < expires;
    },
  };
}
