import type { SessionBatch } from './traffic.js';
import { hashString, mix } from './hash.js';

/**
 * The ids every family shares, derived from the session samples so that one visitor or session
 * has the same id in every type (a profile's sessions appear in the session list; an error's
 * session is a session of the session list).
 */

/** Share of visitors that are identified (have a profile id), in percent. */
export const IDENTIFIED_PERCENT = 22;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `value` as `length` base-36 digits, least significant first: the body of every generated id. */
export function base36Code(value: number, length: number): string {
  let out = '';
  let v = value >>> 0;
  for (let i = 0; i < length; i++) {
    out += ALPHABET[v % 36];
    v = Math.floor(v / 36);
  }
  return out;
}

/** A website's 32-bit hash, the first word of every derived value of its activity. */
export function websiteHash(websiteId: string): number {
  return hashString(websiteId);
}

/** The anonymous id of visitor `visitor` of a website (the tracker's `anon_…` id). */
export function anonymousIdOf(websiteId: string, visitor: number): string {
  const h = websiteHash(websiteId);
  return `anon_${base36Code(mix(h, visitor, 1), 7)}${base36Code(mix(h, visitor, 2), 7)}`;
}

/**
 * The session id of sample `index` of a website's day batch (the tracker's `sess_…` id); for a
 * session built from ingested page views, the id it was sent with (a derived one when it had none).
 */
export function sessionIdOf(batch: Pick<SessionBatch, 'websiteId' | 'day' | 'ingested'>, index: number): string {
  const sent = batch.ingested?.sessionIds[index];
  if (sent) return sent;
  const h = websiteHash(batch.websiteId);
  return `sess_${base36Code(batch.day, 4)}${base36Code(index, 4)}${base36Code(mix(h, batch.day, index), 6)}`;
}

/** Reads back the day and index of a session id made by {@link sessionIdOf}; null for any other id. */
export function parseSessionId(id: string): { day: number; index: number } | null {
  const m = /^sess_([0-9a-z]{4})([0-9a-z]{4})[0-9a-z]{6}$/.exec(id);
  if (!m) return null;
  const read = (s: string): number => [...s].reduceRight((acc, ch) => acc * 36 + ALPHABET.indexOf(ch), 0);
  return { day: read(m[1] as string), index: read(m[2] as string) };
}

/**
 * The profile id of an identified visitor (the id `identify()` sent), or '' for an anonymous one.
 * About {@link IDENTIFIED_PERCENT}% of a website's visitors are identified, the same visitors on every day.
 */
export function profileIdOf(seedHash: number, websiteId: string, visitor: number): string {
  const h = mix(seedHash, websiteHash(websiteId), visitor, 0x1d);
  return h % 100 < IDENTIFIED_PERCENT ? `user_${base36Code(mix(h, 7), 7)}` : '';
}
