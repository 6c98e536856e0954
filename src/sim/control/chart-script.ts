/**
 * The charts of the inspector (`/__sim/ui`) and of the load runner's HTML report
 * (`npm run load -- PLAN --report FILE`), once: browser JavaScript, as text, that defines
 * `window.SimCharts` over uPlot (loaded before it, as the global `uPlot`). Without uPlot (the
 * page under MSW, which has no file server) each chart says so in its element and the rest of
 * the page works.
 *
 * - `SimCharts.decisions(el, { t, series })`: decisions per second, admitted and refused by rule.
 *   `t` holds epoch seconds; `series` maps an outcome (`admitted`, a rule, `scenario`) to one
 *   count per second. `admitted` and every outcome with a non-zero count are drawn.
 * - `SimCharts.latency(el, { t, p50, p90, p99 })`: latency percentiles per second, in ms.
 *
 * Each returns `{ update(data) }`. Times are shown in UTC, as the simulator's clock reports them.
 * The text of data never reaches the DOM as markup (labels are fixed names).
 */
export const CHART_SCRIPT = String.raw`(function () {
  'use strict';
  var OUTCOMES = ['admitted', 'concurrency', 'key_quota', 'endpoint_limit', 'ingest_limit', 'degraded', 'scenario'];
  var COLORS = {
    admitted: '#2b8a3e',
    concurrency: '#e8590c',
    key_quota: '#c92a2a',
    endpoint_limit: '#862e9c',
    ingest_limit: '#1971c2',
    degraded: '#495057',
    scenario: '#e67700',
    p50: '#1971c2',
    p90: '#e67700',
    p99: '#c92a2a'
  };
  var handles = [];
  /** Whole seconds only: the data is per second. */
  var TICK_SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];

  function available() {
    return typeof window.uPlot === 'function';
  }

  function widthOf(el) {
    return Math.max(320, Math.floor(el.clientWidth || 800));
  }

  function utc(ts) {
    return window.uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC');
  }

  function clockText(ts, withDate) {
    var iso = new Date(ts * 1000).toISOString();
    return withDate ? iso.slice(0, 10) + ' ' + iso.slice(11, 19) : iso.slice(11, 19);
  }

  function timeTicks(_u, splits, _axis, _space, incr) {
    return splits.map(function (ts) { return clockText(ts, incr >= 86400); });
  }

  function yRange(_u, _min, max) {
    return [0, max > 0 ? Math.ceil(max * 1.15) : 1];
  }

  function baseOptions(el, height, yLabel) {
    return {
      width: widthOf(el),
      height: height,
      tzDate: utc,
      padding: [12, 32, 0, 0],
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: yRange } },
      axes: [
        { stroke: '#495057', grid: { stroke: '#e9ecef' }, ticks: { stroke: '#dee2e6' }, values: timeTicks, incrs: TICK_SECONDS, space: 60 },
        { label: yLabel, stroke: '#495057', size: 56, grid: { stroke: '#e9ecef' }, ticks: { stroke: '#dee2e6' } }
      ],
      series: [{ label: 'UTC', value: function (_u, ts) { return ts === null || ts === undefined ? '--' : clockText(ts, false); } }]
    };
  }

  function line(label, color, fill) {
    var s = { label: label, stroke: color, width: 2, points: { show: false } };
    if (window.uPlot.paths && window.uPlot.paths.stepped) s.paths = window.uPlot.paths.stepped({ align: 1 });
    if (fill) s.fill = fill;
    return s;
  }

  function unavailable(el) {
    var note = document.createElement('p');
    note.className = 'chart-unavailable';
    note.textContent = 'Chart unavailable: uPlot was not loaded. The HTTP server (analytics-sim serve, or the express app) serves it at /__sim/ui/assets/; under MSW the inspector shows its tables only.';
    el.replaceChildren(note);
    return { update: function () {}, chart: null };
  }

  /** A chart that is rebuilt when its set of series changes and resized with the window. */
  function chartHandle(el, build) {
    if (!available()) return unavailable(el);
    var handle = { chart: null, shape: '' };
    handle.update = function (data) {
      var made = build(data);
      if (handle.chart && made.shape === handle.shape) {
        handle.chart.setData(made.data);
        return;
      }
      if (handle.chart) handle.chart.destroy();
      el.replaceChildren();
      handle.shape = made.shape;
      handle.chart = new window.uPlot(made.options, made.data, el);
    };
    handle.resize = function () {
      if (handle.chart) handle.chart.setSize({ width: widthOf(el), height: handle.chart.height });
    };
    handles.push(handle);
    return handle;
  }

  /**
   * Each point's value holds for its whole second (a step after it): one more point, one step
   * after the last with the last values, gives the last second its width.
   */
  function closeSteps(columns) {
    var t = columns[0];
    if (!t.length) return columns;
    var step = t.length > 1 ? t[t.length - 1] - t[t.length - 2] : 1;
    return columns.map(function (column, i) {
      return column.concat([i === 0 ? t[t.length - 1] + step : column[column.length - 1]]);
    });
  }

  function anyNonZero(values) {
    for (var i = 0; i < values.length; i++) if (values[i]) return true;
    return false;
  }

  function decisions(el, data, height) {
    var handle = chartHandle(el, function (d) {
      var shown = OUTCOMES.filter(function (o) {
        return o === 'admitted' || (d.series[o] && anyNonZero(d.series[o]));
      });
      var options = baseOptions(el, height || 240, 'requests / s');
      shown.forEach(function (o) {
        options.series.push(line(o === 'admitted' ? 'admitted' : 'refused: ' + o, COLORS[o], o === 'admitted' ? 'rgba(43, 138, 62, 0.10)' : null));
      });
      var columns = [d.t].concat(shown.map(function (o) {
        return d.series[o] || d.t.map(function () { return 0; });
      }));
      return { shape: shown.join(','), options: options, data: closeSteps(columns) };
    });
    handle.update(data);
    return handle;
  }

  function latency(el, data, height) {
    var handle = chartHandle(el, function (d) {
      var options = baseOptions(el, height || 220, 'ms');
      ['p50', 'p90', 'p99'].forEach(function (p) { options.series.push(line(p, COLORS[p], null)); });
      return { shape: 'latency', options: options, data: closeSteps([d.t, d.p50, d.p90, d.p99]) };
    });
    handle.update(data);
    return handle;
  }

  window.addEventListener('resize', function () {
    handles.forEach(function (h) { if (h.resize) h.resize(); });
  });

  window.SimCharts = { OUTCOMES: OUTCOMES, COLORS: COLORS, available: available, decisions: decisions, latency: latency };
})();
`;
