/**
 * Long ranges on the largest website, in process (`sim.handle`, limits off, yielding to the
 * event loop between pieces as the server does): an all-time parameter of a few types, from the
 * website's creation to today, and a 365-day 5-parameter dashboard batch. For each: the first
 * query of a simulator whose seed nothing in the process used (cold: its days generated in
 * pieces), the same query of a second simulator of that seed a minute later (its days and their
 * per-day digests cached, its rows computed again: the pass alone), and the second asked again
 * (warm: the answer kept; median of 5). Then every website type once, all time, on one
 * simulator: the longest hold of any. The longest loop hold is the longest stretch without a turn of the
 * event loop, timed by a `setImmediate` ticker: what another request would have waited. Sends its
 * table to the bench (section-channel.ts). Run in a process of its own.
 */
import { createSimulator, type Simulator } from '../../src/index.js';
import type { BenchRow } from './bench-results.js';
import { findLargestWebsite, type BenchFixtures } from './largest-website.js';
import { emitSection } from './section-channel.js';
import { watchLoopHolds } from './loop-holds.js';
import { ownCpuMsSince } from '../process-usage.js';
import { findQueryType, QUERY_TYPE_NAMES } from '../../src/sim/query/registry.js';

/** Types that fold per-day digests (pages, summary, breakdowns, the sessions series and flow, segments), and ones read session by session. */
const TYPES = ['top_pages', 'summary_metrics', 'entry_pages', 'top_referrers', 'country', 'sessions_time_series', 'session_flow', 'traffic_segments', 'vitals_overview', 'profile_list', 'interesting_sessions'] as const;
const DASHBOARD = ['summary_metrics', 'top_pages', 'browser_name', 'country', 'traffic_sources'];
const START = Date.UTC(2025, 5, 2, 12);
const DAY = 86_400_000;
const MINUTE = 60_000;
const WARM_REPEATS = 5;

const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const yieldToEventLoop = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

interface Timed {
  readonly ms: number;
  /** CPU time of the process over the query (user + system): steadier than wall time on a busy machine. */
  readonly cpuMs: number;
  readonly holdMs: number;
  readonly status: number;
}

/** Asks `body` of `sim` on the largest website, timing it and the longest stretch the loop was held. */
async function timedQuery(sim: Simulator, body: object): Promise<Timed> {
  const { websiteId, readKey } = findLargestWebsite(sim.fixtures() as unknown as BenchFixtures);
  const holds = watchLoopHolds();
  const began = performance.now();
  const cpu = process.cpuUsage();
  const answer = await sim.handle({
    method: 'POST',
    path: '/v1/query',
    query: { website_id: websiteId },
    headers: { 'content-type': 'application/json', 'x-api-key': readKey },
    body: JSON.stringify(body),
  });
  const ms = performance.now() - began;
  const cpuMs = ownCpuMsSince(cpu);
  const holdMs = holds.stop();
  return { ms, cpuMs, holdMs, status: answer.status };
}

/** Cold, days cached and warm timings of `body`, with simulators of a seed of its own. */
async function threeWays(seed: string, body: object): Promise<BenchRow['cells']> {
  const cold = await timedQuery(createSimulator({ seed, limits: 'off', startMs: START, yieldToEventLoop }), body);
  if (cold.status !== 200) return { cold: `refused (${cold.status})` };
  const second = createSimulator({ seed, limits: 'off', startMs: START + MINUTE, yieldToEventLoop });
  const cached = await timedQuery(second, body);
  const warm: Timed[] = [];
  for (let i = 0; i < WARM_REPEATS; i++) warm.push(await timedQuery(second, body));
  warm.sort((a, b) => a.ms - b.ms);
  const hold = Math.max(cold.holdMs, cached.holdMs, ...warm.map((w) => w.holdMs));
  return { cold: cold.ms, coldCpu: cold.cpuMs, coldHold: cold.holdMs, cached: cached.ms, cachedCpu: cached.cpuMs, cachedHold: cached.holdMs, warm: (warm[WARM_REPEATS >> 1] as Timed).ms, hold };
}

const probe = createSimulator({ seed: 'long-ranges-probe', startMs: START });
const fixtures = probe.fixtures() as unknown as BenchFixtures;
const largest = findLargestWebsite(fixtures);
const created = (fixtures.websites as readonly { id: string; createdAt?: number | string }[]).find((w) => w.id === largest.websiteId)?.createdAt;
const createdAt = created === undefined ? START - 365 * DAY : typeof created === 'number' ? created : Date.parse(created);
const allTime = { startDate: iso(createdAt), endDate: iso(START) };
const allTimeDays = Math.round((Date.UTC(2025, 5, 2) - Math.floor(createdAt / DAY) * DAY) / DAY) + 1;

// Compiles the code on a week of another seed, so the cold rows time the data, not the compiler.
for (const type of TYPES) await timedQuery(createSimulator({ seed: 'long-ranges-warm-up', limits: 'off', startMs: START, yieldToEventLoop }), { parameters: [type], preset: 'last_7d' });

const rows: BenchRow[] = [];
for (const type of TYPES) rows.push({ name: `${type}, all time`, cells: await threeWays(`long-${type}`, { parameters: [type], ...allTime, limit: 10 }) });
rows.push({
  name: '5-parameter dashboard, 365 days',
  cells: await threeWays('long-dashboard', { parameters: DASHBOARD, startDate: iso(START - 365 * DAY), endDate: iso(START - DAY), limit: 10 }),
});

// Every website type once, all time, on one simulator of a seed of its own: the longest hold of each.
const sweep = createSimulator({ seed: 'long-every-type', limits: 'off', startMs: START, yieldToEventLoop });
const holds: { type: string; holdMs: number; status: number }[] = [];
const sweepCpu = process.cpuUsage();
for (const type of QUERY_TYPE_NAMES) {
  const definition = findQueryType(type);
  if (definition?.target !== 'website' || definition.skipDateRange) continue;
  const { holdMs, status } = await timedQuery(sweep, { parameters: [type], ...allTime, limit: 10 });
  holds.push({ type, holdMs, status });
}
const sweepCpuMs = ownCpuMsSince(sweepCpu);
const answered = holds.filter((h) => h.status === 200).sort((a, b) => b.holdMs - a.holdMs);
const refused = holds.filter((h) => h.status !== 200);
const longest = answered[0];
rows.push({ name: `every website type (${answered.length} answered), all time, one simulator`, cells: { coldCpu: sweepCpuMs, hold: longest?.holdMs ?? null } });

await emitSection({
  kind: 'table',
  id: 'long-ranges',
  title: `long ranges in process on the largest website (${largest.websiteId}; all time: ${allTime.startDate} to ${allTime.endDate}, ${allTimeDays} days) (ms)`,
  nameLabel: 'query',
  columns: [
    { key: 'cold', label: 'cold', digits: 1 },
    { key: 'coldCpu', label: 'cold cpu', digits: 1 },
    { key: 'coldHold', label: 'cold hold', digits: 1 },
    { key: 'cached', label: 'days cached', digits: 1 },
    { key: 'cachedCpu', label: 'cached cpu', digits: 1 },
    { key: 'cachedHold', label: 'cached hold', digits: 1 },
    { key: 'warm', label: 'warm', digits: 2 },
    { key: 'hold', label: 'longest hold', digits: 1 },
  ],
  rows,
  notes: [
    'cold: the first query of a seed not used before in the process; days cached: a second simulator of that seed a minute later (its rows computed again over the cached days and per-day digests); warm: the second asked again, median of 5',
    `cpu: the process's CPU time over the query (steadier than wall time while other work shares the machine); hold: the longest stretch without a turn of the event loop (a setImmediate ticker), what another request waits; the dashboard is ${DASHBOARD.join(', ')}`,
    'top_pages, summary_metrics, entry_pages, top_referrers, country, sessions_time_series, session_flow and traffic_segments fold per-day digests (src/sim/query/readers/digest-days.ts); vitals_overview reads every value of its range, in pieces (src/sim/query/engine/pass-steps.ts); interesting_sessions reads its days session by session and keeps only the page it ranks',
    `every website type: each type asked once for all time, one after the other, on one simulator (its days cached as the types go; its cold cpu is the whole sweep's); the longest holds: ${answered
      .slice(0, 5)
      .map((h) => `${h.type} ${h.holdMs.toFixed(1)} ms`)
      .join(', ')}; over 100 ms: ${answered.filter((h) => h.holdMs > 100).length}${refused.length > 0 ? `; refused: ${refused.map((h) => `${h.type} (${h.status})`).join(', ')}` : ''}`,
  ],
});
