/**
 * `npm run measure:costs`: measures what one day of each query type costs in the pass that
 * computes its rows session by session, and writes the weights docs/query-types.md
 * lists (src/sim/query/engine/type-weights.ts). Not a test: the figures are this machine's.
 *
 * For every type over a website with a date range: a warm-up query of a week before the
 * measured range (so the type's code is compiled), then a query of `--days` days (default 180,
 * a page of 10,000 rows) on a large website, whose days and derived records the query's pieces
 * generate before its pass, as they do for any long range. A type that folds per-day digests
 * without filters is asked with a filter that keeps every session, so its session-by-session
 * pass is what is measured. The CPU time of that query (the sessions of its days are generated
 * beforehand; the records its type derives from them, errors, vitals …, are derived by the
 * query's own prefetch, so they are in it), divided by the days, is the type's cost of a day (not the longest stretch without a
 * yield: a pass runs in pieces, pass-steps.ts, so that is a piece's, printed too); its weight is that cost in {@link UNIT_MS} units, rounded up to a tenth,
 * at least 1. Printed with it: the pass that weight stands for at the longest range a parameter
 * may ask for ({@link MAX_PARAMETER_SITE_DAYS} days of one large website), which the work budget
 * weighs (work-budget.ts).
 *
 *   npm run measure:costs -- [--days 180] [--write]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createSimulator } from '../src/index.js';
import { findQueryType, QUERY_TYPE_NAMES } from '../src/sim/query/registry.js';
import { MAX_PARAMETER_SITE_DAYS, UNIT_MS } from '../src/sim/query/engine/work-budget.js';
import { foldsDayDigests } from '../src/sim/query/readers/digest-days.js';
import { watchLoopHolds } from '../load/bench/loop-holds.js';
import { ownCpuMsSince } from '../load/process-usage.js';

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

/** A filter no session fails: it turns the per-day digests off, so the session-by-session pass is timed. */
const KEEPS_EVERY_SESSION = [{ field: 'country', op: 'ne', value: 'Nowhere' }];
const digested = (type: string): boolean => {
  const definition = findQueryType(type);
  return definition !== undefined && foldsDayDigests(definition);
};

async function measurePass(site: (typeof SITES)[number], type: string, fromMs: number, toMs: number): Promise<{ ms: number; holdMs: number; ok: boolean }> {
  const holds = watchLoopHolds();
  const cpu = process.cpuUsage();
  const response = await sim.handle({
    method: 'POST',
    path: '/v1/query',
    query: { website_id: site.id },
    headers: { host: 'measure.test', 'content-type': 'application/json', 'x-api-key': site.key },
    body: JSON.stringify({ parameters: [type], startDate: iso(fromMs), endDate: iso(toMs), limit: 10_000, filters: digested(type) ? KEEPS_EVERY_SESSION : [] }),
  });
  const ms = ownCpuMsSince(cpu);
  const holdMs = holds.stop();
  const ok = response.status === 200 && (JSON.parse(response.body) as { data: { success: boolean }[] }).data[0]?.success === true;
  return { ms, holdMs, ok };
}

// Every session day of the measured range and the warm-up weeks, generated once beforehand.
for (const site of SITES) await measurePass(site, 'summary_metrics', end - (days + 7 * 30) * DAY, end);

/** `value` rounded up to a tenth. */
const tenthUp = (value: number): number => Math.ceil(value * 10 - 1e-9) / 10;

/** What a type weighs, measured, and the longest piece of its longest range the budget admits. */
interface Measured {
  type: string;
  msPerDay: number;
  weight: number;
  site: string;
  /** The pass the weight stands for at {@link MAX_PARAMETER_SITE_DAYS} days. */
  capMs: number;
  /** The longest piece of the measured pass. */
  holdMs: number;
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
    await measurePass(site, type, warmTo - 6 * DAY, warmTo);
    const { ms, holdMs, ok } = await measurePass(site, type, end - (days - 1) * DAY, end);
    if (!ok) continue;
    const msPerDay = ms / days;
    const weight = Math.max(1, tenthUp(msPerDay / UNIT_MS));
    const capMs = MAX_PARAMETER_SITE_DAYS * weight * UNIT_MS;
    measured.push({ type, msPerDay, weight, site: site.id, capMs, holdMs });
    break;
  }
}

process.stdout.write(`cost of a day of each type read session by session, ${days} days on a large website (unit ${UNIT_MS.toFixed(3)} ms; a parameter may ask for ${MAX_PARAMETER_SITE_DAYS} days):\n`);
for (const row of [...measured].sort((a, b) => b.msPerDay - a.msPerDay)) {
  process.stdout.write(
    `  ${row.type.padEnd(40)} ${row.msPerDay.toFixed(3).padStart(7)} ms/day  weight ${row.weight.toFixed(1).padStart(4)}  pass at ${MAX_PARAMETER_SITE_DAYS} days about ${row.capMs.toFixed(0).padStart(5)} ms CPU, longest piece ${row.holdMs.toFixed(0)} ms  (${row.site})\n`,
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
      " * What a website-day of each query type costs in the pass that computes its rows session by session",
      ` * (\`dayWeightOf\`, \`work-budget.ts\`): its measured cost in units of ${UNIT_MS.toFixed(3)} ms, rounded up to a tenth. A type not listed weighs 1.`,
      ' */',
      'export const TYPE_DAY_WEIGHTS: Readonly<Record<string, number>> = {',
      ...lines,
      '};',
      '',
    ].join('\n'),
  );
  process.stdout.write('wrote src/sim/query/engine/type-weights.ts\n');
}
