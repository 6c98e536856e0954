import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consumeSlot, createSlidingLog, peekSlots } from '../../../src/sim/admission/sliding-log.js';
import { createMemoryStore } from '../../../src/sim/admission/store.js';

describe('reading a sliding window without recording (peekSlots)', () => {
  it('predicts every decision of consumeSlot and changes nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 60 }),
        (limit, windowMs, gaps) => {
          const log = createSlidingLog();
          let now = 0;
          for (const gap of gaps) {
            now += gap;
            const before = JSON.stringify(log);
            const seen = peekSlots(log, now, limit, windowMs);
            expect(JSON.stringify(log)).toBe(before);
            const decision = consumeSlot(log, now, limit, windowMs);
            expect(decision.allowed).toBe(seen.remaining > 0);
            expect(seen.held + seen.remaining).toBe(Math.max(limit, seen.held));
            if (decision.allowed) expect(decision.remaining).toBe(seen.remaining - 1);
            else expect(decision.reset).toBe(seen.reset);
          }
        },
      ),
    );
  });

  it('gives a full, empty window for an identity the store has never seen, without adding it', () => {
    const store = createMemoryStore();
    expect(store.peek?.('api-key:nobody', 1_000, 10, 60_000)).toEqual({ limit: 10, held: 0, remaining: 10, reset: null });
    expect(store.size()).toBe(0);
  });
});
