/**
 * The charts of the inspector (`/__sim/ui`) and of the load runner's HTML report
 * (`npm run load -- PLAN --report FILE`), once, over uPlot (the page's global, see
 * uplot-global.ts). Without uPlot (the page under MSW, which has no file server) each chart
 * says so in its element and the rest of the page works.
 *
 * Times are shown in UTC, as the simulator's clock reports them. The text of data never reaches
 * the DOM as markup (labels are fixed names).
 */
import type uPlot from 'uplot';
import type { Outcome } from '../sim/journal/journal-entry.js';
import type { DecisionSeries, LatencySeries } from './chart-data.js';
import { loadedUplot } from './uplot-global.js';

/** The outcomes the decisions chart draws, in the legend's order. */
export const OUTCOMES = ['admitted', 'concurrency', 'key_quota', 'endpoint_limit', 'ingest_limit', 'degraded', 'scenario'] as const satisfies readonly Outcome[];

const PERCENTILES = ['p50', 'p90', 'p99'] as const;

const COLORS: Record<(typeof OUTCOMES)[number] | (typeof PERCENTILES)[number], string> = {
  admitted: '#2b8a3e',
  concurrency: '#e8590c',
  key_quota: '#c92a2a',
  endpoint_limit: '#862e9c',
  ingest_limit: '#1971c2',
  degraded: '#495057',
  scenario: '#e67700',
  p50: '#1971c2',
  p90: '#e67700',
  p99: '#c92a2a',
};

/** Whole seconds only: the data is per second. */
const TICK_SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];

/** A drawn chart: `update` redraws it with new data of the same kind. */
export interface ChartHandle<D> {
  update(data: D): void;
}

/** What a chart's data becomes: its options, its columns, and the shape that decides a rebuild. */
interface Drawing {
  readonly shape: string;
  readonly options: uPlot.Options;
  readonly data: uPlot.AlignedData;
}

/** What each drawn chart does when the window is resized. */
const resizers: (() => void)[] = [];

function widthOf(el: HTMLElement): number {
  return Math.max(320, Math.floor(el.clientWidth || 800));
}

function clockText(ts: number, withDate: boolean): string {
  const iso = new Date(ts * 1000).toISOString();
  return withDate ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso.slice(11, 19);
}

function baseOptions(lib: typeof uPlot, el: HTMLElement, height: number, yLabel: string): uPlot.Options & { series: uPlot.Series[] } {
  return {
    width: widthOf(el),
    height,
    tzDate: (ts) => lib.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    padding: [12, 32, 0, 0],
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? Math.ceil(max * 1.15) : 1] } },
    axes: [
      {
        stroke: '#495057',
        grid: { stroke: '#e9ecef' },
        ticks: { stroke: '#dee2e6' },
        values: (_u, splits, _axis, _space, incr) => splits.map((ts) => clockText(ts, incr >= 86400)),
        incrs: TICK_SECONDS,
        space: 60,
      },
      { label: yLabel, stroke: '#495057', size: 56, grid: { stroke: '#e9ecef' }, ticks: { stroke: '#dee2e6' } },
    ],
    // uPlot passes null for a cursor off the data, whatever its declaration says.
    series: [{ label: 'UTC', value: (_u, ts: number | null) => (ts === null || ts === undefined ? '--' : clockText(ts, false)) }],
  };
}

function line(lib: typeof uPlot, label: string, color: string, fill?: string): uPlot.Series {
  const series: uPlot.Series = { label, stroke: color, width: 2, points: { show: false } };
  if (lib.paths?.stepped) series.paths = lib.paths.stepped({ align: 1 });
  if (fill) series.fill = fill;
  return series;
}

function unavailable<D>(el: HTMLElement): ChartHandle<D> {
  const note = document.createElement('p');
  note.className = 'chart-unavailable';
  note.textContent =
    'Chart unavailable: uPlot was not loaded. The HTTP server (analytics-sim serve, or the express app) serves it at /__sim/ui/assets/; under MSW the inspector shows its tables only.';
  el.replaceChildren(note);
  return { update: () => undefined };
}

function resizeAll(): void {
  for (const resize of resizers) resize();
}

/** A chart that is rebuilt when its set of series changes and resized with the window. */
function chartHandle<D>(el: HTMLElement, draw: (lib: typeof uPlot, data: D) => Drawing): ChartHandle<D> {
  const lib = loadedUplot();
  if (!lib) return unavailable(el);
  let chart: uPlot | null = null;
  let shape = '';
  if (resizers.length === 0) window.addEventListener('resize', resizeAll);
  resizers.push(() => {
    if (chart) chart.setSize({ width: widthOf(el), height: chart.height });
  });
  return {
    update(data) {
      const made = draw(lib, data);
      if (chart && made.shape === shape) {
        chart.setData(made.data);
        return;
      }
      chart?.destroy();
      el.replaceChildren();
      shape = made.shape;
      chart = new lib(made.options, made.data, el);
    },
  };
}

/**
 * The columns with one more point: each point's value holds for its whole second (a step after
 * it), so one point a step after the last, with the last values, gives the last second its width.
 */
function closeSteps(t: readonly number[], columns: readonly (readonly (number | null)[])[]): uPlot.AlignedData {
  if (t.length === 0) return [[...t], ...columns.map((column) => [...column])];
  const last = t[t.length - 1] as number;
  const step = t.length > 1 ? last - (t[t.length - 2] as number) : 1;
  return [[...t, last + step], ...columns.map((column) => [...column, column[column.length - 1] ?? null])];
}

function anyNonZero(values: readonly number[] | undefined): boolean {
  return values !== undefined && values.some((value) => Boolean(value));
}

/**
 * Decisions per second, admitted and refused by rule, in `el`. `admitted` and every outcome
 * with a non-zero count are drawn.
 */
export function decisions(el: HTMLElement, data: DecisionSeries, height = 240): ChartHandle<DecisionSeries> {
  const handle = chartHandle<DecisionSeries>(el, (lib, d) => {
    const shown = OUTCOMES.filter((o) => o === 'admitted' || anyNonZero(d.series[o]));
    const options = baseOptions(lib, el, height, 'requests / s');
    for (const o of shown) {
      options.series.push(o === 'admitted' ? line(lib, 'admitted', COLORS[o], 'rgba(43, 138, 62, 0.10)') : line(lib, `refused: ${o}`, COLORS[o]));
    }
    const zeros = d.t.map(() => 0);
    return { shape: shown.join(','), options, data: closeSteps(d.t, shown.map((o) => d.series[o] ?? zeros)) };
  });
  handle.update(data);
  return handle;
}

/** Latency percentiles per second, in ms, in `el`. */
export function latency(el: HTMLElement, data: LatencySeries, height = 220): ChartHandle<LatencySeries> {
  const handle = chartHandle<LatencySeries>(el, (lib, d) => {
    const options = baseOptions(lib, el, height, 'ms');
    for (const p of PERCENTILES) options.series.push(line(lib, p, COLORS[p]));
    return { shape: 'latency', options, data: closeSteps(d.t, [d.p50, d.p90, d.p99]) };
  });
  handle.update(data);
  return handle;
}
