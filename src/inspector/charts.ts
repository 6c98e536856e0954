/**
 * The charts of the inspector (`/__sim/ui`), of the load runner's HTML report
 * (`npm run load -- PLAN --report FILE`) and of the bench's (`npm run bench -- --report FILE`),
 * once, over uPlot (the page's global, see
 * uplot-global.ts). Without uPlot (the page under MSW, which has no file server) each chart
 * says so in its element and the rest of the page works.
 *
 * Times are shown in UTC, as the simulator's clock reports them. The text of data never reaches
 * the DOM as markup (labels are fixed names).
 */
import type uPlot from 'uplot';
import type { Outcome } from '../sim/journal/journal-entry.js';
import type { BarChartData, DecisionSeries, LatencySeries, LineChartData, ValueSeries } from './chart-data.js';
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

/** The colours of a chart's groups of series, in order. */
const PALETTE = ['#1971c2', '#e67700', '#2b8a3e', '#c92a2a', '#862e9c', '#495057', '#0c8599'];

/** How every axis is drawn. */
const AXIS = { stroke: '#495057', grid: { stroke: '#e9ecef' }, ticks: { stroke: '#dee2e6' } } as const satisfies uPlot.Axis;

/** A value scale from 0 to a little over its largest value. */
const FROM_ZERO: uPlot.Scale.Range = (_u, _min, max) => [0, max > 0 ? Math.ceil(max * 1.15) : 1];

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
    scales: { x: { time: true }, y: { range: FROM_ZERO } },
    axes: [
      {
        ...AXIS,
        values: (_u, splits, _axis, _space, incr) => splits.map((ts) => clockText(ts, incr >= 86400)),
        incrs: TICK_SECONDS,
        space: 60,
      },
      { ...AXIS, label: yLabel, size: 56 },
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

/** Each series' colour: one per group (a series without a group is a group of its own). */
function groupColors(series: readonly ValueSeries[]): string[] {
  const groups: string[] = [];
  return series.map((s, i) => {
    const group = s.group ?? `#${i}`;
    if (!groups.includes(group)) groups.push(group);
    return PALETTE[groups.indexOf(group) % PALETTE.length] as string;
  });
}

/** The options every value chart (not over time) starts from. */
function valueOptions(el: HTMLElement, height: number, xAxis: uPlot.Axis, y: { label: string; log: boolean }): uPlot.Options & { series: uPlot.Series[] } {
  return {
    width: widthOf(el),
    height,
    padding: [12, 32, 0, 0],
    cursor: { drag: { x: false, y: false } },
    // The legend names the series; values are read off the axes, not followed by the cursor.
    legend: { live: false },
    scales: { y: y.log ? { distr: 3 } : { range: FROM_ZERO } },
    axes: [{ ...AXIS, ...xAxis }, { ...AXIS, label: y.label, size: 64 }],
    series: [],
  };
}

/** A value a logarithmic scale can place: none for 0 and below. */
function placeable(value: number | null, log: boolean): number | null {
  return log && value !== null && value <= 0 ? null : value;
}

/** Values against a numeric x (days of range), one line per series, in `el`; a dashed series is drawn dashed. */
export function valueLines(el: HTMLElement, data: LineChartData, height = 300): ChartHandle<LineChartData> {
  const handle = chartHandle<LineChartData>(el, (_lib, d) => {
    const colors = groupColors(d.series);
    // Every measured x is labelled (a logarithmic axis would otherwise label only 1, 10, 100…).
    const options = valueOptions(el, height, { label: d.xLabel, splits: () => [...d.x], filter: (_u, splits) => splits }, { label: d.yLabel, log: d.log });
    const first = d.x[0] ?? 0;
    const last = d.x[d.x.length - 1] ?? 1;
    // From the first x to the last, a little wider: not out to the next power of ten.
    const xRange: uPlot.Range.MinMax = d.log ? [first / 1.2, last * 1.2] : [first, last];
    options.scales = { ...options.scales, x: { time: false, range: () => xRange, ...(d.log ? { distr: 3 } : {}) } };
    options.series.push({ label: d.xLabel });
    d.series.forEach((s, i) => {
      const series: uPlot.Series = { label: s.label, stroke: colors[i] as string, width: 2, points: { show: true, size: 5 } };
      if (s.dashed) series.dash = [6, 4];
      options.series.push(series);
    });
    return { shape: `lines:${d.series.map((s) => s.label).join(',')}`, options, data: [[...d.x], ...d.series.map((s) => s.values.map((v) => placeable(v, d.log)))] };
  });
  handle.update(data);
  return handle;
}

/** Part of a category's width its group of bars takes. */
const GROUP_WIDTH = 0.8;

/** About the width of one character of an axis label, in CSS pixels. */
const LABEL_CHAR_PX = 7;

/** A category's label in lines of at most about `width` characters, broken between words. */
function wrapLabel(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** Values by category, one bar per series side by side in each category, in `el`. */
export function valueBars(el: HTMLElement, data: BarChartData, height = 280): ChartHandle<BarChartData> {
  const handle = chartHandle<BarChartData>(el, (lib, d) => {
    const colors = groupColors(d.series);
    const x = d.categories.map((_, i) => i);
    const barWidth = GROUP_WIDTH / Math.max(1, d.series.length);
    // Most of a category's share of the plot (the chart less its value axis), so labels keep apart.
    const lineWidth = Math.max(12, Math.floor(((widthOf(el) - 100) / Math.max(1, d.categories.length) / LABEL_CHAR_PX) * 0.8));
    const labels = d.categories.map((c) => wrapLabel(c, lineWidth));
    const lineCount = Math.max(1, ...labels.map((l) => l.length));
    const options = valueOptions(
      el,
      height,
      { splits: () => x, values: (_u, splits) => splits.map((i) => (labels[i] ?? []).join('\n')), grid: { show: false }, size: 20 + 15 * lineCount },
      { label: d.yLabel, log: d.log },
    );
    options.scales = { ...options.scales, x: { time: false, range: () => [-0.5, d.categories.length - 0.5] } };
    options.series.push({ label: 'row', value: (_u, i: number | null) => (i === null || i === undefined ? '--' : (d.categories[i] ?? '')) });
    d.series.forEach((s, j) => {
      const series: uPlot.Series = { label: s.label, stroke: colors[j] as string, fill: `${colors[j] as string}b3`, width: 1, points: { show: false } };
      // Each series' bars start at their own offset in the category's group, one bar wide.
      const paths = lib.paths?.bars?.({
        disp: {
          x0: { unit: 1, values: (_u, _series, i0, i1) => x.slice(i0, i1 + 1).map((i) => i - GROUP_WIDTH / 2 + j * barWidth) },
          size: { unit: 1, values: () => [barWidth] },
        },
      });
      if (paths) series.paths = paths;
      options.series.push(series);
    });
    return { shape: `bars:${d.series.map((s) => s.label).join(',')}`, options, data: [x, ...d.series.map((s) => s.values.map((v) => placeable(v, d.log)))] };
  });
  handle.update(data);
  return handle;
}
