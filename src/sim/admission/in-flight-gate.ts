/**
 * Counts requests in flight per API key (by the hash of the presented secret, so any
 * well-formed secret counts, known or not, as the service does). A slot is held from admission
 * until the adapter has finished sending the response.
 */
export interface InFlightGate {
  /** Takes a slot; false when `cap` are already held. `held` tells how many were held before. */
  acquire(fingerprint: string, cap: number): { acquired: boolean; held: number };
  /** Gives a slot back. Extra releases are ignored. */
  release(fingerprint: string): void;
  /** Slots held now by one fingerprint (the hash of a presented secret). */
  held(fingerprint: string): number;
  /** Slots held now by all keys together. */
  total(): number;
}

/** Creates an empty gate. */
export function createInFlightGate(): InFlightGate {
  const counts = new Map<string, number>();
  return {
    acquire(fingerprint, cap) {
      const held = counts.get(fingerprint) ?? 0;
      if (held >= cap) return { acquired: false, held };
      counts.set(fingerprint, held + 1);
      return { acquired: true, held };
    },
    release(fingerprint) {
      const held = counts.get(fingerprint) ?? 0;
      if (held <= 1) counts.delete(fingerprint);
      else counts.set(fingerprint, held - 1);
    },
    held: (fingerprint) => counts.get(fingerprint) ?? 0,
    total() {
      let sum = 0;
      for (const n of counts.values()) sum += n;
      return sum;
    },
  };
}
