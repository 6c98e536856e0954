import { ALPHANUMERIC, createRandom } from './random.js';

/** Issues request ids: `req_` + 16 letters and digits; the n-th id is a function of (seed, n). */
export interface RequestIdSource {
  /** The id of the next request of this process (the memory store numbers requests here). */
  next(): string;
  /**
   * The id of the `n`-th request (from 1), whichever process numbered it (a shared store numbers
   * the requests of every process): the same id `next()` gives the n-th time. Requests arrive
   * roughly in order, so ids are generated forward and the recent ones are kept; an `n` far
   * behind is generated again from the start.
   */
  at(n: number): string;
}

/** Ids kept behind the furthest one generated, for requests numbered slightly out of order. */
const KEPT = 4096;

/** Creates the id source of one simulator run. */
export function createRequestIds(seed: string): RequestIdSource {
  const fresh = () => createRandom(seed).fork('request-ids');
  let stream = fresh();
  /** Ids generated so far; `recent[i % KEPT]` holds the id of request i while i > generated − KEPT. */
  let generated = 0;
  const recent: string[] = new Array(KEPT);
  let issued = 0;
  const generate = (): string => {
    const id = stream.string(16, ALPHANUMERIC, 'req_');
    generated++;
    recent[generated % KEPT] = id;
    return id;
  };
  const at = (n: number): string => {
    if (n <= generated && n > generated - KEPT) return recent[n % KEPT] as string;
    if (n <= generated) {
      stream = fresh();
      generated = 0;
    }
    while (generated < n - 1) generate();
    return generate();
  };
  return { next: () => at(++issued), at };
}
