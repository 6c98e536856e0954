/**
 * The script of the load runner's HTML report (load/html-report.ts, bundled by
 * `npm run build:inspector`): draws each plan's charts, the inspector's own, from the JSON the
 * report embeds in `#report-data` (one {@link ReportCharts} per plan, in the order of the
 * sections `#decisions-<i>` and `#latency-<i>`).
 */
import type { ReportCharts } from './chart-data.js';
import { decisions, latency } from './charts.js';
import { byId } from './dom.js';

const reports = JSON.parse(byId('report-data').textContent ?? '[]') as ReportCharts[];
reports.forEach((report, i) => {
  decisions(byId(`decisions-${i}`), report.decisions, 240);
  latency(byId(`latency-${i}`), report.latency, 220);
});
