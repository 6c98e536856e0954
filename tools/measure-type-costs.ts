/**
 * `npm run measure:costs`: measures what one day of each query type costs in the synchronous
 * pass that computes its rows, and writes the weights the work budget reads
 * (src/sim/query/engine/type-weights.ts). Not a test: the figures are this machine's.
 *
 * For every type over a website with a date range: a warm-up query of a week before the
 * measured range (so the type's code is compiled), then a query of `--days` days (default 180,
 * a page of 10,000 rows) on a large website, whose days and derived records the query's pieces
 * generate before its pass, as they do for any long range. The longest stretch without a
 * yield, divided by the days, is the type's cost of a day; its weight is that cost in
 * {@link UNIT_MS} units, rounded up to a tenth, at least 1. Then the longest range that weight
 * admits is run on days not read yet, and the weight raised until its pass fits the budget.
 *
 *   npm run measure:costs -- [--days 180] [--write]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createSimulator } from '../src/index.js';
import { findQueryType, QUERY_TYPE_NAMES } from '../src/sim/query/registry.js';
import { TYPE_DAY_WEIGHTS } from '../src/sim/query/engine/type-weights.js';
import { MAX_PARAMETER_WORK, UNIT_MS } from '../src/sim/query/engine/work-budget.js';

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '180' },
    write: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write('Usage: npm run measure:costs -- [--days 180] [--write]\n  --write  rewrite src/sim/query/engine/type-weights.ts with the weights measured\n');
  process.exit(0);
}
const days = Number(values.days);
// Measured as if every type weighed 1: the weights written last time must not refuse the ranges measured now.
for (const type of Object.keys(TYPE_DAY_WEIGHTS)) delete (TYPE_DAY_WEIGHTS as Record<string, number>)[type];
const DAY = 86_400_000;

const sim = createSimulator({ seed: 42, clock: 'virtual', limits: 'off', yieldToEventLoop: () => new Promise<void>((resolve) => setImmediate(resolve)) });
const fixtures = sim.fixtures() as { apiKeys: { id: string; secret: string }[] };
const secretOf = (id: string): string => fixtures.apiKeys.find((k) => k.id === id)?.secret ?? '';
/** Large websites of two plans: a type the first one's plan does not include runs on the second. */
const SITES = [
  { id: 'web_globex_news', key: secretOf('key_globex_read') },
  { id: 'web_acme_store', key: secretOf('key_acme_read') },
];

const end = Date.UTC(2025, 4, 31);
const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

async function longestPiece(site: (typeof SITES)[number], type: string, fromMs: number, toMs: number): Promise<{ ms: number; ok: boolean }> {
  let last = performance.now();
  let longest = 0;
  let timer: NodeJS.Immediate;
  const tick = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    timer = setImmediate(tick);
  };
  timer = setImmediate(tick);
  const response = await sim.handle({
    method: 'POST',
    path: '/v1/query',
    query: { website_id: site.id },
    headers: { host: 'measure.test', 'content-type': 'application/json', 'x-api-key': site.key },
    body: JSON.stringify({ parameters: [type], startDate: iso(fromMs), endDate: iso(toMs), limit: 10_000 }),
  });
  clearImmediate(timer);
  longest = Math.max(longest, performance.now() - last);
  const ok = response.status === 200 && (JSON.parse(response.body) as { data: { success: boolean }[] }).data[0]?.success === true;
  return { ms: longest, ok };
}

// Every session day of the measured range and the warm-up weeks, generated once beforehand.
for (const site of SITES) await longestPiece(site, 'summary_metrics', end - (days + 7 * 30) * DAY, end);

/** `value` rounded up to a tenth. */
const tenthUp = (value: number): number => Math.ceil(value * 10 - 1e-9) / 10;

/** What a type weighs, measured, and the longest piece of its longest range the budget admits. */
interface Measured {
  type: string;
  msPerDay: number;
  weight: number;
  site: string;
  capDays: number;
  capMs: number;
}
const measured: Measured[] = [];
let warmUp = 0;
for (const type of QUERY_TYPE_NAMES) {
  const definition = findQueryType(type);
  if (!definition || definition.target !== 'website' || definition.skipDateRange) continue;
  for (const site of SITES) {
    // Each type's warm-up reads its own week, so no type finds another's derived days.
    warmUp = (warmUp + 1) % 30;
    const warmTo = end - (days + warmUp * 7) * DAY;
    await longestPiece(site, type, warmTo - 6 * DAY, warmTo);
    const { ms, ok } = await longestPiece(site, type, end - (days - 1) * DAY, end);
    if (!ok) continue;
    const msPerDay = ms / days;
    let weight = Math.max(1, tenthUp(msPerDay / UNIT_MS));
    // Then the longest range the weight admits. A long range can cost more a day than a short
    // one (its days and derived records no longer all fit the traffic cache, so the pass makes
    // some again): heavier until it fits, then the lightest tenth in between that still fits.
    const budgetMs = MAX_PARAMETER_WORK * UNIT_MS;
    const capEnd = end - (days + 30 * 7 + 1) * DAY;
    const atCap = async (w: number): Promise<{ days: number; ms: number }> => {
      const capDays = Math.floor(MAX_PARAMETER_WORK / w);
      return { days: capDays, ms: (await longestPiece(site, type, capEnd - (capDays - 1) * DAY, capEnd)).ms };
    };
    let cap = await atCap(weight);
    if (cap.ms > budgetMs) {
      let light = weight;
      for (let attempt = 0; attempt < 6 && cap.ms > budgetMs; attempt++) {
        light = weight;
        weight = Math.max(weight + 0.1, tenthUp((weight * cap.ms) / budgetMs));
        cap = await atCap(weight);
      }
      for (let step = 0; step < 5 && weight - light > 0.15; step++) {
        const middle = tenthUp((light + weight) / 2);
        if (middle >= weight) break;
        const tried = await atCap(middle);
        if (tried.ms <= budgetMs) {
          weight = middle;
          cap = tried;
        } else light = middle;
      }
    }
    const capDays = cap.days;
    const capMs = cap.ms;
    measured.push({ type, msPerDay, weight, site: site.id, capDays, capMs });
    break;
  }
}

process.stdout.write(`cost of a day of each type, ${days} days on a large website (unit ${UNIT_MS.toFixed(3)} ms; budget ${MAX_PARAMETER_WORK} units, ${(MAX_PARAMETER_WORK * UNIT_MS).toFixed(0)} ms):\n`);
for (const row of [...measured].sort((a, b) => b.msPerDay - a.msPerDay)) {
  process.stdout.write(
    `  ${row.type.padEnd(40)} ${row.msPerDay.toFixed(3).padStart(7)} ms/day  weight ${row.weight.toFixed(1).padStart(4)}  longest range ${String(row.capDays).padStart(4)} days: ${row.capMs.toFixed(0).padStart(4)} ms  (${row.site})\n`,
  );
}
if (values.write) {
  const lines = measured
    .filter((row) => row.weight > 1)
    .sort((a, b) => a.type.localeCompare(b.type))
    .map((row) => `  ${row.type}: ${row.weight},`);
  writeFileSync(
    new URL('../src/sim/query/engine/type-weights.ts', import.meta.url),
    [
      '// Written by `npm run measure:costs -- --write` (tools/measure-type-costs.ts); edit by measuring again.',
      '',
      '/**',
      ' * What a website-day of each query type weighs in the work budget (`work-budget.ts`): the',
      ` * type's measured cost of a day in units of ${UNIT_MS.toFixed(3)} ms, rounded up to a tenth. A type not listed weighs 1.`,
      ' */',
      'export const TYPE_DAY_WEIGHTS: Readonly<Record<string, number>> = {',
      ...lines,
      '};',
      '',
    ].join('\n'),
  );
  process.stdout.write('wrote src/sim/query/engine/type-weights.ts\n');
}
