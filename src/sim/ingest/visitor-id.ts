import { sha256Hex } from '../sha256-hex.js';
import { DAY_MS } from '../model/world.js';
import { sanitizeText } from './client-id-auth.js';

/**
 * The visitor id an ingestion route stores, as the service's `applyVisitorIdPrivacy` does: the
 * sanitized anonymous id (cut to 255) hashed with the UTC day's salt, sha256(id + salt) in hex,
 * unless the sender opted out (`anonymizeVisitorIds: false`, or `"auto"` for a visitor in the
 * United States). An empty id stays empty. The service draws a random salt per day; the
 * simulator derives it from the world seed and the day, so the same seed stores the same ids:
 * one visitor keeps one id within a day and gets another the next day, as on the service.
 */
export function storedVisitorId(
  seed: string,
  anonymousId: unknown,
  anonymize: boolean | 'auto' | null | undefined,
  timestamp: number,
  country = '',
): string {
  const id = sanitizeText(anonymousId, 255);
  if (id === '') return '';
  const hashed = anonymize === false ? false : anonymize === 'auto' ? country.toUpperCase() !== 'US' : true;
  if (!hashed) return id;
  return sha256Hex(id + dailySalt(seed, Math.floor(timestamp / DAY_MS)));
}

const salts = new Map<string, string>();

/** The salt of a UTC day for a world seed (memoized: a handful of days in use at a time). */
function dailySalt(seed: string, day: number): string {
  const key = `${seed}\u0000${day}`;
  let salt = salts.get(key);
  if (salt === undefined) {
    salt = sha256Hex(`analytics-sim daily salt\u0000${key}`);
    if (salts.size >= 64) salts.delete(salts.keys().next().value as string);
    salts.set(key, salt);
  }
  return salt;
}
