/**
 * The script of the bench's HTML report (load/bench/bench-report.ts, bundled by
 * `npm run build:inspector`): draws each chart, with the inspector's chart code, from the JSON
 * the report embeds in `#report-data` (one {@link BenchChart} each, drawn in its `#<id>`).
 */
import type { BenchChart } from './chart-data.js';
import { valueBars, valueLines } from './charts.js';
import { byId } from './dom.js';

const charts = JSON.parse(byId('report-data').textContent ?? '[]') as BenchChart[];
for (const chart of charts) {
  if (chart.kind === 'lines') valueLines(byId(chart.id), chart);
  else valueBars(byId(chart.id), chart);
}
