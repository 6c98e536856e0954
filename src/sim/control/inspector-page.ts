import { INSPECTOR_ASSETS } from './inspector-assets.js';

const assetHref = (path: string): string => path.replace(/^\/__sim\//, '');

/**
 * The inspector's HTML (`GET /__sim/ui`): a constant. Its data comes from the JSON routes, read
 * by `/__sim/ui/inspector.js`; its chart library from the HTTP adapter
 * (`/__sim/ui/assets/…`). Every reference is relative, so the page also works under a mount
 * point (express's `app.use('/sim', …)`), and no inline script runs (see
 * {@link INSPECTOR_SECURITY_HEADERS}).
 */
export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>analytics-sim inspector</title>
<link rel="stylesheet" href="${assetHref(INSPECTOR_ASSETS.style.path)}">
<style>
  :root { --ink: #212529; --muted: #6c757d; --line: #dee2e6; --soft: #f1f3f5; --accent: #1971c2; --ok: #2b8a3e; --bad: #c92a2a; --warn: #e67700; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #f8f9fa; }
  header { display: flex; flex-wrap: wrap; align-items: center; gap: 12px 24px; padding: 12px 24px; background: #fff; border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 10; }
  h1 { font-size: 18px; margin: 0; font-weight: 600; }
  h1 span { color: var(--muted); font-weight: 400; }
  h2 { font-size: 15px; margin: 0 0 8px; font-weight: 600; }
  .clock { display: flex; align-items: baseline; gap: 8px; }
  .clock .mode { text-transform: uppercase; font-size: 11px; letter-spacing: .05em; padding: 1px 6px; border-radius: 3px; background: #e7f5ff; color: var(--accent); font-weight: 600; }
  .clock time { font: 600 15px/1 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  .controls { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; }
  .controls form { display: flex; gap: 4px; align-items: center; margin: 0; }
  .controls input { font: inherit; padding: 3px 6px; border: 1px solid var(--line); border-radius: 4px; }
  .controls input[type=number] { width: 90px; }
  .controls input[type=text] { width: 190px; }
  button { font: inherit; padding: 3px 10px; border: 1px solid #adb5bd; border-radius: 4px; background: #fff; cursor: pointer; }
  button:hover { background: var(--soft); }
  button.danger { border-color: #ffa8a8; color: var(--bad); }
  .status { flex-basis: 100%; min-height: 1.45em; margin: 0; color: var(--ok); font-size: 13px; }
  .status.bad { color: var(--bad); }
  .status:empty { display: none; }
  #updated { margin-left: auto; color: var(--muted); font-size: 12px; }
  main { padding: 16px 24px 32px; display: grid; gap: 16px; grid-template-columns: minmax(0, 1fr); max-width: 1400px; }
  section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; overflow-x: auto; }
  .section-head { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; }
  .section-head .muted { font-size: 12px; }
  .totals { display: flex; flex-wrap: wrap; gap: 8px; margin: 4px 0 8px; }
  .total { border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; min-width: 96px; }
  .total .label { display: block; font-size: 11px; color: var(--muted); }
  .total .value { font: 600 18px/1.2 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  .total.zero { opacity: .45; }
  .total[data-outcome=admitted] .value { color: var(--ok); }
  .total.refused .value { color: var(--bad); }
  .chart-unavailable { color: var(--muted); font-style: italic; }
  table { border-collapse: collapse; width: 100%; }
  th { text-align: left; font-weight: 600; font-size: 12px; color: var(--muted); border-bottom: 1px solid var(--line); padding: 4px 8px; white-space: nowrap; }
  td { border-bottom: 1px solid var(--soft); padding: 5px 8px; vertical-align: top; }
  .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
  .num { text-align: right; font-variant-numeric: tabular-nums; }
  .strong { font-weight: 600; }
  .muted { color: var(--muted); }
  .small { font-size: 12px; }
  .empty { color: var(--muted); font-style: italic; }
  .path { max-width: 320px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .reason { font-size: 12.5px; }
  .status-2 { color: var(--ok); } .status-4 { color: var(--bad); } .status-5 { color: var(--warn); }
  .badge { display: inline-block; padding: 0 6px; border-radius: 3px; font-size: 12px; white-space: nowrap; background: #ffe3e3; color: var(--bad); }
  .badge.outcome-admitted { background: #d3f9d8; color: var(--ok); }
  .badge.outcome-scenario { background: #fff3bf; color: #a05a00; }
  .badge.outcome-concurrency { background: #ffe8cc; color: #d9480f; }
  tr.key-disabled, tr.key-revoked, tr.key-expired { opacity: .55; }
  .badge.key-status { margin-left: 8px; background: var(--soft); color: var(--ink); }
  .meter { display: inline-block; position: relative; height: 6px; background: var(--soft); border-radius: 3px; overflow: hidden; vertical-align: middle; }
  .meter .fill { position: absolute; left: 0; top: 0; bottom: 0; background: var(--accent); }
  .meter.high .fill { background: var(--warn); }
  .meter.full .fill { background: var(--bad); }
  .meter.quota { width: 60px; margin-right: 8px; }
  .key-name { margin-left: 8px; }
  td.who, td.inflight, .quota .line { white-space: nowrap; }
  .meter.flight { width: 40px; margin-left: 6px; }
  .meter.small { width: 32px; margin: 0 4px 0 0; }
  td.windows { white-space: nowrap; }
  .windows .window { display: inline-flex; align-items: center; margin-right: 10px; }
  .windows .wname { font-size: 12px; color: var(--muted); margin-right: 4px; }
  .scenario { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; margin-top: 8px; }
  .step { display: grid; grid-template-columns: 250px minmax(0, 1fr); gap: 2px 12px; align-items: center; margin-top: 6px; }
  .step-label { font-size: 12.5px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .step-effect { grid-column: 2; }
  .track { position: relative; height: 14px; background: var(--soft); border-radius: 3px; }
  .track .bar { position: absolute; top: 2px; bottom: 2px; border-radius: 2px; background: #a5d8ff; min-width: 2px; }
  .step-active .bar { background: var(--warn); }
  .step-done .bar { background: #ced4da; }
  .track .bar.open { background-image: linear-gradient(90deg, transparent 85%, rgba(255,255,255,.8)); }
  .track .now { position: absolute; top: -3px; bottom: -3px; width: 2px; margin-left: -1px; background: var(--bad); }
  .legend-note { font-size: 12px; color: var(--muted); margin: 4px 0 0; }
</style>
<script src="${assetHref(INSPECTOR_ASSETS.script.path)}" defer></script>
<script src="ui/inspector.js" defer></script>
</head>
<body>
<header>
  <h1>analytics-sim <span>inspector</span></h1>
  <div class="clock" aria-label="Simulator clock">
    <span class="mode" id="clock-mode" data-testid="clock-mode">…</span>
    <time id="clock-iso" data-testid="clock-now">…</time>
  </div>
  <div class="controls" aria-label="Clock controls">
    <button type="button" data-advance="1000" data-testid="advance-1000">+1 s</button>
    <button type="button" data-advance="10000" data-testid="advance-10000">+10 s</button>
    <button type="button" data-advance="60000" data-testid="advance-60000">+1 min</button>
    <button type="button" data-advance="3600000" data-testid="advance-3600000">+1 h</button>
    <form id="advance-form"><label>by <input id="advance-ms" type="number" min="0" step="1" value="5000" aria-label="Milliseconds to advance"> ms</label> <button type="submit">Advance</button></form>
    <form id="set-form"><label>to <input id="set-now" type="text" placeholder="2025-06-02T12:05:00Z" aria-label="Instant to set"></label> <button type="submit">Set</button></form>
    <button type="button" id="reset" class="danger">Reset…</button>
  </div>
  <span id="updated"></span>
  <p id="status" class="status" role="status" aria-live="polite"></p>
</header>
<main>
  <section aria-labelledby="decisions-title">
    <div class="section-head"><h2 id="decisions-title">Decisions per second</h2><span class="muted">simulator time (UTC), the last 120 s</span></div>
    <div class="totals">
      <div class="total" data-outcome="admitted"><span class="label">admitted</span><span class="value" data-testid="count-admitted">0</span></div>
      <div class="total refused"><span class="label">refused, all rules</span><span class="value" id="count-refused" data-testid="count-refused">0</span></div>
      <div class="total" data-outcome="concurrency"><span class="label">concurrency</span><span class="value" data-testid="count-concurrency">0</span></div>
      <div class="total" data-outcome="key_quota"><span class="label">key_quota</span><span class="value" data-testid="count-key_quota">0</span></div>
      <div class="total" data-outcome="endpoint_limit"><span class="label">endpoint_limit</span><span class="value" data-testid="count-endpoint_limit">0</span></div>
      <div class="total" data-outcome="ingest_limit"><span class="label">ingest_limit</span><span class="value" data-testid="count-ingest_limit">0</span></div>
      <div class="total" data-outcome="degraded"><span class="label">degraded</span><span class="value" data-testid="count-degraded">0</span></div>
      <div class="total" data-outcome="scenario"><span class="label">scenario</span><span class="value" data-testid="count-scenario">0</span></div>
    </div>
    <div id="chart"></div>
    <p class="legend-note" id="totals-note"></p>
  </section>
  <section aria-labelledby="keys-title">
    <div class="section-head"><h2 id="keys-title">API keys</h2><span class="muted">in flight: <span class="strong" id="inflight-total" data-testid="inflight-total">0</span>, cap <span id="inflight-cap">20</span> per key</span><span class="muted" id="store-note"></span></div>
    <table>
      <thead><tr><th>Key</th><th>Quota (remaining)</th><th>Per-endpoint windows</th><th>In flight</th></tr></thead>
      <tbody id="keys-body"></tbody>
    </table>
    <p class="legend-note" id="keys-note"></p>
  </section>
  <section aria-labelledby="scenarios-title">
    <div class="section-head"><h2 id="scenarios-title">Scenarios</h2><span class="muted" id="scenarios-count"></span></div>
    <div id="scenarios-list"></div>
    <p class="legend-note" id="scenarios-available"></p>
  </section>
  <section aria-labelledby="requests-title">
    <div class="section-head"><h2 id="requests-title">Last requests</h2><span class="muted">newest first, from the decision journal · <a href="journal.har" download="analytics-sim.har">download as HAR</a></span></div>
    <table>
      <thead><tr><th class="num">#</th><th>Time (UTC)</th><th>Method</th><th>Path</th><th>Identity</th><th class="num">Status</th><th>Decision</th><th>Reason</th></tr></thead>
      <tbody id="requests-body"></tbody>
    </table>
  </section>
</main>
</body>
</html>
`;

/**
 * Headers of the inspector's page and script: scripts and styles from this origin only (the
 * uPlot files included), data from this origin only, no framing (the page has buttons that
 * change the clock), no referrer, never cached.
 */
export const INSPECTOR_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};
