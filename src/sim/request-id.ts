import { ALPHANUMERIC, createRandom } from './random.js';

/** Issues request ids: `req_` + 16 letters and digits; the n-th id is a function of (seed, n). */
export interface RequestIdSource {
  next(): string;
}

/** Creates the id source of one simulator run. */
export function createRequestIds(seed: string): RequestIdSource {
  const stream = createRandom(seed).fork('request-ids');
  return {
    next: () => `req_${stream.string(16, ALPHANUMERIC)}`,
  };
}
