/**
 * What a parameter costs against its range in days, in process (`sim.handle`, limits off), on
 * the largest website: a few types, from the cheapest to the heaviest the work budget weighs
 * (src/sim/query/engine/type-weights.ts), over 1 to 365 days ending the day before the
 * simulator's start. Cold: the first query of a simulator whose seed nothing in the process
 * used before (its traffic generated for the query; the code already compiled by a warm-up of
 * another seed). Warm: the same range asked of another simulator of that seed started a minute
 * later, so the answer is computed again from the traffic the process already made (not the rows
 * or the text a simulator keeps: another `limit` would page the kept rows of a type the engine
 * pages, such as top_pages; nor the seeded results simulators share, keyed on the instant),
 * median of 3. A range
 * over the parameter's work budget is refused (400) and said so. Sends the table to the bench
 * (section-channel.ts), and the 30-day rows to its table of first requests against warm ones.
 * Run in a process of its own.
 */
import { createSimulator } from '../../src/index.js';
import { findLargestWebsite, type BenchFixtures } from './largest-website.js';
import type { BenchRow } from './bench-results.js';
import { firstVsWarmRow, firstVsWarmTable } from './first-vs-warm.js';
import { emitSection } from './section-channel.js';

/** The ranges measured, in days. */
export const RANGE_DAYS = [1, 7, 30, 90, 180, 365] as const;
/** The cheapest type, a breakdown, and the heaviest a day weighs. */
const TYPES = ['summary_metrics', 'top_pages', 'interesting_sessions'] as const;
const START = Date.UTC(2025, 5, 2, 12);
const DAY = 86_400_000;
const WARM_REPEATS = 3;

const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const MINUTE = 60_000;

/** A query of `type` over the `days` days before {@link START}, of a simulator of `seed` started `late` ms after it. */
function rangeQuery(seed: string, late = 0): (type: string, days: number, limit: number) => Promise<number | 'refused'> {
  const sim = createSimulator({ seed, limits: 'off', startMs: START + late });
  const { websiteId, readKey } = findLargestWebsite(sim.fixtures() as unknown as BenchFixtures);
  const headers = { 'content-type': 'application/json', 'x-api-key': readKey };
  return async (type, days, limit) => {
    const body = JSON.stringify({ parameters: [type], startDate: iso(START - days * DAY), endDate: iso(START - DAY), limit });
    const began = performance.now();
    const answer = await sim.handle({ method: 'POST', path: '/v1/query', query: { website_id: websiteId }, headers, body });
    const ms = performance.now() - began;
    if (answer.status === 400) return 'refused';
    if (answer.status !== 200) throw new Error(`${type} over ${days} days answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    return ms;
  };
}

const warmUp = rangeQuery('range-warm-up');
for (const type of TYPES) await warmUp(type, 1, 10);

const rows: BenchRow[] = [];
const firstVsWarm: BenchRow[] = [];
for (const type of TYPES) {
  const cold: Record<string, number | string> = {};
  const warm: Record<string, number | string> = {};
  for (const days of RANGE_DAYS) {
    const query = rangeQuery(`range-${type}-${days}`);
    const first = await query(type, days, 10);
    cold[days] = first;
    if (first === 'refused') {
      warm[days] = 'refused';
      continue;
    }
    const again: number[] = [];
    for (let i = 1; i <= WARM_REPEATS; i++) again.push((await rangeQuery(`range-${type}-${days}`, i * MINUTE)(type, days, 10)) as number);
    warm[days] = again.sort((a, b) => a - b)[Math.floor(WARM_REPEATS / 2)] as number;
  }
  rows.push({ name: `${type}, cold`, cells: cold, series: { group: type, dashed: true } });
  rows.push({ name: `${type}, warm`, cells: warm, series: { group: type } });
  const cold30 = cold[30];
  const warm30 = warm[30];
  if (typeof cold30 === 'number' && typeof warm30 === 'number') {
    firstVsWarm.push(firstVsWarmRow(`${type} 30 days, in process`, cold30, warm30));
  }
}

await emitSection({
  kind: 'table',
  id: 'range-costs',
  title: 'one parameter against its range in days, in process on the largest website (ms)',
  nameLabel: 'type',
  columns: RANGE_DAYS.map((days) => ({ key: String(days), label: `${days} d`, digits: 2 })),
  rows,
  notes: [
    "cold: a simulator of a seed not used before in the process; warm: the same range in another simulator of that seed a minute later (its traffic already made, its rows computed again), median of 3",
    'refused: over the work budget of one parameter (400; src/sim/query/engine/work-budget.ts)',
  ],
});
await emitSection(firstVsWarmTable(firstVsWarm));
