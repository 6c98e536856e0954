/**
 * What a fresh simulator's first 30-day query costs in process: `summary_metrics` and
 * `top_pages` over `last_30d` on web_acme_store, asked of the first simulator of seed 42 in
 * this process (its traffic generated), of a second simulator of seed 42 (the traffic and, at
 * the same instant, the rows shared with the first, src/sim/traffic-cache.ts), after a reset,
 * and of the first simulator of seed 43 (generated again: another seed shares nothing). A CI suite that takes a fresh simulator per
 * test pays the second row per test. Run in a process of its own, so the first row is cold.
 */
import { createSimulator, type Simulator } from '../../src/index.js';
import { emitSection } from './section-channel.js';

const body = JSON.stringify({ parameters: ['summary_metrics', 'top_pages'], preset: 'last_30d', limit: 10 });

function secretOf(sim: Simulator, keyId: string): string {
  const fixtures = sim.fixtures() as { apiKeys: { id: string; secret: string | null }[] };
  return fixtures.apiKeys.find((k) => k.id === keyId)?.secret ?? '';
}

/** Milliseconds of the query, asked of `sim`. */
async function firstQueryMs(sim: Simulator): Promise<number> {
  const headers = { 'content-type': 'application/json', 'x-api-key': secretOf(sim, 'key_acme_read') };
  const began = performance.now();
  const answer = await sim.handle({ method: 'POST', path: '/v1/query', query: { website_id: 'web_acme_store' }, headers, body });
  const ms = performance.now() - began;
  if (answer.status !== 200) throw new Error(`the query answered ${answer.status}: ${answer.body.slice(0, 200)}`);
  return ms;
}

const first = await firstQueryMs(createSimulator({ seed: 42 }));
const seconds: number[] = [];
for (let i = 0; i < 9; i++) seconds.push(await firstQueryMs(createSimulator({ seed: 42 })));
seconds.sort((a, b) => a - b);
const reset = createSimulator({ seed: 42 });
await firstQueryMs(reset);
await reset.reset();
const afterReset = await firstQueryMs(reset);
const otherSeed = await firstQueryMs(createSimulator({ seed: 43 }));

await emitSection({
  kind: 'lines',
  id: 'fresh-simulators',
  title: "a fresh simulator's first 30-day query in process (summary_metrics + top_pages last_30d, web_acme_store)",
  lines: [
    { label: '1st simulator of seed 42 (cold process)', value: `${first.toFixed(1)} ms` },
    { label: '2nd of its seed, first query, p50 of 9', value: `${(seconds[4] ?? 0).toFixed(1)} ms (max ${(seconds[8] ?? 0).toFixed(1)} ms)` },
    { label: 'the same simulator after a reset', value: `${afterReset.toFixed(1)} ms` },
    { label: '1st simulator of seed 43 (nothing shared)', value: `${otherSeed.toFixed(1)} ms` },
  ],
});
