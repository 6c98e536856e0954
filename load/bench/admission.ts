/**
 * Admission decisions per second and memory per identity of the in-memory store, with 10,000
 * identities arriving on a simulated clock. Run with --expose-gc for the memory figure.
 */
import { createMemoryStore } from '../../src/sim/admission/store.js';
import { createRandom } from '../../src/sim/random.js';
import { emitSection } from './section-channel.js';

const IDENTITIES = 10_000;
const DECISIONS = 1_000_000;
const gc = (globalThis as { gc?: () => void }).gc;

const random = createRandom('admission-bench');
const ids = Array.from({ length: IDENTITIES }, (_, i) => `query:execute:apikey:key_${i}`);
const picks = Uint32Array.from({ length: DECISIONS }, () => Math.floor(random.next() * IDENTITIES));

gc?.();
const before = process.memoryUsage().heapUsed;
const store = createMemoryStore();
let now = Date.UTC(2025, 5, 2);
let refused = 0;
const started = performance.now();
for (let i = 0; i < DECISIONS; i++) {
  if (i % 100 === 0) now += 1; // about 100,000 decisions a simulated second
  const decision = store.consume(ids[picks[i] as number] as string, now, 120, 60_000);
  if (!('then' in decision) && !decision.allowed) refused++;
}
const seconds = (performance.now() - started) / 1000;
gc?.();
const after = process.memoryUsage().heapUsed;

await emitSection({
  kind: 'lines',
  id: 'admission-store',
  title: `the in-memory admission store, ${IDENTITIES.toLocaleString('en')} identities on a simulated clock`,
  lines: [
    { label: 'decisions', value: `${(DECISIONS / seconds / 1e6).toFixed(2)} M/s (${refused} refused)` },
    {
      label: 'memory per identity',
      value: gc ? `${((after - before) / store.size()).toFixed(0)} bytes with a full 120-slot window` : 'run with --expose-gc for memory per identity',
    },
  ],
});
