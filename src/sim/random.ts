import seedrandom from 'seedrandom';

/**
 * A seeded pseudo-random stream. Every value is a pure function of the seed string and of how
 * many values were drawn before it, so the same seed gives the same sequence on any machine.
 */
export interface Random {
  /** The seed string this stream was created from. */
  readonly seed: string;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty array, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** A standard normal variate (Box-Muller). */
  normal(): number;
  /**
   * `prefix` followed by `length` characters drawn from `alphabet`, made as one flat string (not
   * a chain of concatenations: a request id or secret kept for long costs its characters only).
   */
  string(length: number, alphabet: string, prefix?: string): string;
  /**
   * An independent stream named by `label`. Forks depend only on this stream's seed and the
   * label, never on how much was drawn, so concurrent consumers cannot disturb each other.
   */
  fork(label: string | number): Random;
}

/** Creates a seeded stream (Alea, from seedrandom). */
export function createRandom(seed: string | number): Random {
  const seedString = String(seed);
  const prng = seedrandom.alea(seedString);
  const next = (): number => prng.double();
  const random: Random = {
    seed: seedString,
    next,
    int(min, max) {
      return min + Math.floor(next() * (max - min + 1));
    },
    chance(p) {
      return next() < p;
    },
    pick(items) {
      if (items.length === 0) throw new RangeError('pick() needs a non-empty array');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    normal() {
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    string(length, alphabet, prefix = '') {
      const codes = new Array<number>(prefix.length + length);
      for (let i = 0; i < prefix.length; i++) codes[i] = prefix.charCodeAt(i);
      for (let i = prefix.length; i < codes.length; i++) codes[i] = alphabet.charCodeAt(Math.floor(next() * alphabet.length));
      // Lengths here are the simulator's own (ids, secrets, tokens): tens of characters, never input's.
      return String.fromCharCode.apply(null, codes);
    },
    fork(label) {
      return createRandom(`${seedString}/${label}`);
    },
  };
  return random;
}

/** Letters and digits, the alphabet of API key secrets and request ids. */
export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
