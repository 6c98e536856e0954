import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** The fixed service prefix of every API key secret (SPEC 2.2). */
export const KEY_PREFIX = 'dbdy_';

/** Characters after the prefix in a generated secret. */
export const KEY_SECRET_LENGTH = 48;

/** Characters of the secret kept for identification (`start`). */
export const KEY_START_LENGTH = 8;

/**
 * SHA-256 hex of a secret (or session token), unsalted, as the live service stores keys.
 * Pure JavaScript so that the core also runs in a browser.
 */
export function hashSecret(secret: string): string {
  return bytesToHex(sha256(utf8ToBytes(secret)));
}
