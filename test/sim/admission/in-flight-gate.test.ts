import { describe, expect, it } from 'vitest';
import { createInFlightGate, MAX_GATE_ENTRIES } from '../../../src/sim/admission/in-flight-gate.js';

describe('the in-flight gate', () => {
  it('counts slots per fingerprint up to the cap, and takes one again once one is given back', () => {
    const gate = createInFlightGate();
    expect([gate.acquire('a', 2), gate.acquire('a', 2), gate.acquire('a', 2)]).toEqual([
      { acquired: true, held: 0 },
      { acquired: true, held: 1 },
      { acquired: false, held: 2 },
    ]);
    gate.release('a');
    expect(gate.acquire('a', 2)).toEqual({ acquired: true, held: 1 });
    expect([gate.held('a'), gate.total()]).toEqual([2, 2]);
  });

  it('ignores extra releases, and refuses every request under a cap of 0', () => {
    const gate = createInFlightGate();
    gate.release('never');
    gate.acquire('a', 1);
    gate.release('a');
    gate.release('a');
    expect([gate.held('a'), gate.held('never'), gate.total()]).toEqual([0, 0, 0]);
    expect(gate.acquire('a', 0)).toEqual({ acquired: false, held: 0 });
    expect(gate.acquire('b', 0)).toEqual({ acquired: false, held: 0 });
  });

  it(`keeps the slots of a fingerprint that holds some when more than ${MAX_GATE_ENTRIES.toLocaleString('en')} others came and went`, () => {
    const gate = createInFlightGate();
    gate.acquire('kept', 20);
    gate.acquire('kept', 20);
    for (let i = 0; i < MAX_GATE_ENTRIES * 2 + 5; i++) {
      expect(gate.acquire(`fp-${i}`, 20)).toEqual({ acquired: true, held: 0 });
      gate.release(`fp-${i}`);
    }
    expect([gate.held('kept'), gate.total()]).toEqual([2, 2]);
    expect(gate.acquire('fp-3', 20)).toEqual({ acquired: true, held: 0 });
  });

  it(`keeps every count while more than ${MAX_GATE_ENTRIES.toLocaleString('en')} fingerprints hold slots at once, and frees them all`, () => {
    const gate = createInFlightGate();
    const holders = MAX_GATE_ENTRIES + 1_000;
    for (let i = 0; i < holders; i++) expect(gate.acquire(`fp-${i}`, 1)).toEqual({ acquired: true, held: 0 });
    expect(gate.total()).toBe(holders);
    expect(gate.acquire('fp-7', 1)).toEqual({ acquired: false, held: 1 });
    for (let i = 0; i < holders; i++) gate.release(`fp-${i}`);
    expect([gate.total(), gate.held('fp-7')]).toEqual([0, 0]);
  });
});
