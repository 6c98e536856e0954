import { sha256Hex } from '../sha256-hex.js';

/** The fixed service prefix of every API key secret (SPEC 2.2). */
export const KEY_PREFIX = 'dbdy_';

/** Characters after the prefix in a generated secret. */
export const KEY_SECRET_LENGTH = 48;

/** Characters of the secret kept for identification (`start`). */
export const KEY_START_LENGTH = 8;

/** SHA-256 hex of a secret (or session token), unsalted, as the live service stores keys. */
export function hashSecret(secret: string): string {
  return sha256Hex(secret);
}
