import type { Simulator } from '../../src/index.js';

/**
 * A simulator whose requests' in-flight slots the test holds, so that overlap is made, not hoped
 * for: while the gate is held, a request the simulator has answered keeps its slot (the adapter
 * still sends the answer; its call to give the slot back waits) until the test opens the gate.
 * Counts the requests `handle` has decided, so a test can send the next one only once the
 * previous one has been decided.
 */
export interface SlotGate {
  /** The simulator to serve (express, node:http, MSW): `handle` counted and gated. */
  readonly sim: Simulator;
  /** How many requests `handle` has decided in all. */
  count(): number;
  /** Resolves once `n` requests in all have been decided. */
  decided(n: number): Promise<void>;
  /** From now on, the slot of every request decided is kept until {@link open}. */
  hold(): void;
  /** Gives back every slot kept (in the order their adapters let them go), and stops holding. */
  open(): void;
}

export function gateSlots(sim: Simulator): SlotGate {
  let count = 0;
  let holding = false;
  const kept: (() => void)[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const gated = Object.create(sim) as Simulator;
  Object.defineProperty(gated, 'handle', {
    value: async (...args: Parameters<Simulator['handle']>) => {
      const response = await sim.handle(...args);
      count++;
      for (const waiter of waiters.filter((w) => w.n <= count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const release = response.release;
      if (!holding || !release) return response;
      let asked = false;
      const heldRelease = (): void => {
        if (asked) return;
        asked = true;
        if (holding) kept.push(release);
        else release();
      };
      return { ...response, release: heldRelease };
    },
  });
  return {
    sim: gated,
    count: () => count,
    decided: (n) => (count >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    hold: () => {
      holding = true;
    },
    open: () => {
      holding = false;
      for (const release of kept.splice(0)) release();
    },
  };
}
