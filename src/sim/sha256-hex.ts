import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

/** Character codes of the lowercase hex digits. */
const DIGITS = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * SHA-256 of a text's UTF-8 bytes as 64 lowercase hex digits, made as one flat string: a hash
 * kept for as long as the simulator runs (a key's, a stored visitor id) costs its 64
 * characters, not a rope of pieces as a hex text built by concatenation would. Pure
 * JavaScript, so that the core also runs in a browser.
 */
export function sha256Hex(text: string): string {
  const bytes = sha256(utf8ToBytes(text));
  const codes = new Array<number>(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    codes[2 * i] = DIGITS[byte >>> 4] as number;
    codes[2 * i + 1] = DIGITS[byte & 15] as number;
  }
  return String.fromCharCode(...codes);
}
