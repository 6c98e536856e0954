/**
 * The inspector page's own JavaScript (served at `/__sim/ui/inspector.js`, after the shared
 * chart code): polls the control plane once a second and draws what it answers.
 *
 * - `GET /__sim/clock`, `GET /__sim/limits`, `GET /__sim/scenarios`, and `GET /__sim/journal`
 *   incrementally (`since` the newest decision seen, at most 2,000 per poll);
 * - the clock buttons `POST /__sim/clock` (`{ advanceMs }` or `{ now }`), the reset button
 *   `POST /__sim/reset`.
 *
 * Everything it keeps is bounded: per-second counts of the last 120 s of simulator time, the
 * last 20 decisions, and one total per outcome. Data reaches the DOM only as `textContent` and
 * attribute values, never as markup. Paths are relative to where the page is mounted.
 */
export const INSPECTOR_SCRIPT = String.raw`(function () {
  'use strict';
  var POLL_MS = 1000;
  var SPAN_S = 120;
  var RECENT = 20;
  var PAGE_LIMIT = 2000;
  var OUTCOMES = window.SimCharts.OUTCOMES;
  var base = location.pathname.replace(/\/__sim\/ui\/?$/, '');

  var state = fresh();
  var chart = null;
  var timer = null;

  function fresh() {
    var totals = {};
    OUTCOMES.forEach(function (o) { totals[o] = 0; });
    return { lastSeq: 0, lastAt: null, since: null, size: 0, clockNow: null, buckets: new Map(), totals: totals, recent: [], unseen: 0, seen: 0 };
  }

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function setText(id, text) {
    var node = $(id);
    if (node) node.textContent = String(text);
  }

  function api(path, init) {
    return fetch(base + path, Object.assign({ cache: 'no-store', headers: { accept: 'application/json' } }, init || {})).then(function (res) {
      return res.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (_e) { body = null; }
        if (!res.ok) {
          var message = body && body.error ? body.error + (body.details && body.details[0] ? ': ' + body.details[0].message : '') : 'HTTP ' + res.status;
          throw new Error(path + ' answered ' + res.status + ' (' + message + ')');
        }
        return body;
      });
    });
  }

  function post(path, body) {
    return api(path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
  }

  function status(text, bad) {
    var node = $('status');
    node.textContent = text;
    node.className = bad ? 'status bad' : 'status';
  }

  // ---- formatting -------------------------------------------------------------------------

  function pad(n, w) { var s = String(n); while (s.length < w) s = '0' + s; return s; }

  function timeOfDay(ms) {
    var d = new Date(ms);
    return pad(d.getUTCHours(), 2) + ':' + pad(d.getUTCMinutes(), 2) + ':' + pad(d.getUTCSeconds(), 2) + '.' + pad(d.getUTCMilliseconds(), 3);
  }

  function span(ms) {
    if (ms % 3600000 === 0) return ms / 3600000 + ' h';
    if (ms % 60000 === 0) return ms / 60000 + ' min';
    if (ms % 1000 === 0) return ms / 1000 + ' s';
    return ms + ' ms';
  }

  function duration(ms) {
    if (ms === 0) return '0 s';
    if (ms < 1000) return ms + ' ms';
    if (ms < 60000) return (Math.round(ms / 100) / 10) + ' s';
    var minutes = Math.floor(ms / 60000);
    var seconds = Math.round((ms % 60000) / 1000);
    return minutes + ' min' + (seconds ? ' ' + seconds + ' s' : '');
  }

  function inSeconds(ms) {
    return ms <= 0 ? 'now' : 'in ' + (ms < 10000 ? (ms / 1000).toFixed(1) : Math.ceil(ms / 1000)) + ' s';
  }

  function number(n) { return Number(n).toLocaleString('en-US'); }

  // ---- the journal --------------------------------------------------------------------------

  function record(entry) {
    state.seen++;
    state.totals[entry.outcome] = (state.totals[entry.outcome] || 0) + 1;
    var second = Math.floor(entry.at / 1000);
    var counts = state.buckets.get(second);
    if (!counts) { counts = {}; state.buckets.set(second, counts); }
    counts[entry.outcome] = (counts[entry.outcome] || 0) + 1;
    state.recent.push(entry);
    if (state.recent.length > RECENT) state.recent.shift();
    state.lastSeq = entry.seq;
    state.lastAt = entry.at;
  }

  function pollJournal(clockNow) {
    var query = '?limit=' + PAGE_LIMIT + (state.lastAt !== null ? '&since=' + state.lastAt : '');
    return api('/__sim/journal' + query).then(function (listing) {
      var info = listing.info;
      var entries = listing.entries;
      var newest = entries.length ? entries[entries.length - 1].seq : state.lastSeq;
      var restarted = state.since !== null && (info.since !== state.since || info.size < state.size || newest < state.lastSeq || (state.clockNow !== null && clockNow < state.clockNow));
      if (restarted) {
        state = fresh();
        return pollJournal(clockNow);
      }
      var fresher = entries.filter(function (e) { return e.seq > state.lastSeq; });
      if (fresher.length && state.since !== null && fresher[0].seq > state.lastSeq + 1 && entries.length >= PAGE_LIMIT) {
        state.unseen += fresher[0].seq - state.lastSeq - 1;
      }
      fresher.forEach(record);
      state.since = info.since;
      state.size = info.size;
      state.clockNow = clockNow;
      return info;
    });
  }

  function chartData(nowMs) {
    var end = Math.floor(nowMs / 1000);
    var start = end - SPAN_S + 1;
    state.buckets.forEach(function (_v, second) { if (second < start) state.buckets.delete(second); });
    var t = [];
    var series = {};
    OUTCOMES.forEach(function (o) { series[o] = []; });
    for (var s = start; s <= end; s++) {
      t.push(s);
      var counts = state.buckets.get(s) || {};
      OUTCOMES.forEach(function (o) { series[o].push(counts[o] || 0); });
    }
    return { t: t, series: series };
  }

  function renderTotals(info) {
    var refused = 0;
    OUTCOMES.forEach(function (o) {
      if (o !== 'admitted') refused += state.totals[o] || 0;
      var node = document.querySelector('[data-outcome="' + o + '"]');
      if (node) {
        node.querySelector('.value').textContent = number(state.totals[o] || 0);
        node.classList.toggle('zero', !state.totals[o]);
      }
    });
    setText('count-refused', number(refused));
    var note = 'Counted over the ' + number(state.seen) + ' decisions this page has read';
    if (info.size > state.seen) note += ' (the journal holds ' + number(info.size) + ')';
    if (state.unseen) note += '; ' + number(state.unseen) + ' went by too fast to read';
    if (!info.complete) note += '; the journal is incomplete since ' + new Date(info.since).toISOString();
    setText('totals-note', note + '.');
  }

  // ---- reasons ------------------------------------------------------------------------------

  function reasonOf(e) {
    var parts = [];
    if (e.outcome === 'admitted') {
      parts.push(e.status >= 400 ? 'admitted, then answered ' + e.status + ' by the route' : 'within every limit');
    } else if (e.outcome === 'concurrency') {
      parts.push(e.inFlight + ' of ' + e.inFlightCap + ' already in flight');
    } else if (e.outcome === 'scenario') {
      var f = e.faults[0];
      parts.push(f ? f.scenario + ' / ' + (f.name || 'step ' + f.step) + ' (' + f.effect + ')' : 'scenario fault');
    } else if (e.outcome === 'degraded') {
      parts.push('the admission store did not answer');
    } else {
      var c = e.checks.filter(function (x) { return !x.allowed; })[0];
      parts.push(c ? c.id + ' full: ' + c.limit + ' per ' + span(c.windowMs) : e.outcome);
    }
    if (e.retryAfter !== null) parts.push('Retry-After ' + e.retryAfter + ' s');
    if (e.outcome !== 'scenario' && e.faults.length) parts.push('touched by ' + e.faults.map(function (f) { return f.scenario + ' (' + f.effect + ')'; }).join(', '));
    if (e.warnings.length) parts.push(e.warnings.length + (e.warnings.length === 1 ? ' warning' : ' warnings'));
    return parts.join(' · ');
  }

  function renderRecent() {
    var body = $('requests-body');
    var rows = state.recent.slice().reverse().map(function (e) {
      var tr = el('tr');
      tr.setAttribute('data-seq', String(e.seq));
      tr.appendChild(el('td', 'num', e.seq));
      tr.appendChild(el('td', 'mono', timeOfDay(e.at)));
      tr.appendChild(el('td', 'mono', e.method));
      var path = el('td', 'mono path', e.path);
      path.title = e.path;
      tr.appendChild(path);
      tr.appendChild(el('td', 'mono', e.identity));
      tr.appendChild(el('td', 'num status-' + String(e.status).charAt(0), e.status));
      var decision = el('td');
      decision.appendChild(el('span', 'badge outcome-' + e.outcome, e.outcome === 'admitted' ? 'admitted' : 'refused: ' + e.outcome));
      tr.appendChild(decision);
      tr.appendChild(el('td', 'reason', reasonOf(e)));
      return tr;
    });
    if (!rows.length) {
      var empty = el('tr');
      var td = el('td', 'empty', 'No request yet: send one to the simulated API.');
      td.colSpan = 8;
      empty.appendChild(td);
      rows.push(empty);
    }
    body.replaceChildren.apply(body, rows);
  }

  // ---- limits -------------------------------------------------------------------------------

  function meter(used, limit, kind) {
    var outer = el('span', 'meter ' + kind);
    var inner = el('span', 'fill');
    var share = limit > 0 && used !== null ? Math.min(1, used / limit) : 0;
    inner.style.width = (share * 100).toFixed(1) + '%';
    if (share >= 1) outer.classList.add('full');
    else if (share >= 0.8) outer.classList.add('high');
    outer.appendChild(inner);
    return outer;
  }

  var SHORT_NAMES = { 'query:execute': 'execute', 'query:compile': 'compile', track: 'track' };

  function renderKeys(limits) {
    setText('inflight-total', limits.inFlight.total);
    setText('inflight-cap', limits.inFlight.cap);
    $('store-note').textContent = limits.storeReadable ? '' : 'The admission store cannot be read: window figures are unknown.';
    var rows = limits.keys.map(function (k) {
      var tr = el('tr', 'key-' + k.status);
      tr.setAttribute('data-key', k.id);
      var who = el('td', 'who');
      who.appendChild(el('span', 'mono strong', k.id));
      who.appendChild(el('span', 'muted small key-name', k.name));
      if (k.status !== 'active') who.appendChild(el('span', 'badge key-status', k.status));
      tr.appendChild(who);

      var quota = el('td', 'quota');
      if (k.quota) {
        var q = k.quota;
        var head = el('div', 'line');
        head.appendChild(meter(q.used, q.limit, 'quota'));
        var remaining = el('span', 'strong', q.remaining === null ? '?' : q.remaining);
        remaining.setAttribute('data-testid', 'quota-remaining-' + k.id);
        head.appendChild(remaining);
        head.appendChild(el('span', 'muted', ' of ' + q.limit + ' left · per ' + span(q.windowMs)));
        quota.appendChild(head);
        var resetText = q.reset === null ? 'window empty' : (q.remaining === 0 ? 'next slot ' : 'oldest frees ') + inSeconds(q.reset - limits.now);
        quota.appendChild(el('div', 'muted small', (q.used === null ? '?' : q.used) + ' used · ' + resetText));
      } else {
        quota.appendChild(el('span', 'muted', 'no quota'));
      }
      tr.appendChild(quota);

      var windows = el('td', 'windows');
      k.windows.forEach(function (w) {
        var item = el('div', 'window');
        item.title = w.id + ': ' + w.limit + ' per ' + span(w.windowMs) + (w.reset !== null ? ', next slot frees ' + inSeconds(w.reset - limits.now) : '');
        item.appendChild(el('span', 'wname', SHORT_NAMES[w.name] || w.name));
        item.appendChild(meter(w.used, w.limit, 'small'));
        item.appendChild(el('span', 'mono small', (w.used === null ? '?' : w.used) + '/' + w.limit));
        windows.appendChild(item);
      });
      tr.appendChild(windows);

      var flight = el('td', 'inflight');
      var count = el('span', 'strong', k.inFlight);
      count.setAttribute('data-testid', 'inflight-' + k.id);
      flight.appendChild(count);
      flight.appendChild(el('span', 'muted', ' / ' + limits.inFlight.cap));
      flight.appendChild(meter(k.inFlight, limits.inFlight.cap, 'flight'));
      tr.appendChild(flight);
      return tr;
    });
    var body = $('keys-body');
    body.replaceChildren.apply(body, rows);
    setText('keys-note', limits.omittedKeys ? limits.omittedKeys + ' more keys not listed.' : '');
  }

  // ---- scenarios ----------------------------------------------------------------------------

  function effectText(step) {
    var e = step.effect;
    var m = step.match || {};
    var what = e.type;
    if (e.type === 'rate_limit') what = '429, Retry-After ' + e.retryAfterSeconds + ' s';
    else if (e.type === 'error') what = e.status + ' ' + e.code;
    else if (e.type === 'latency') what = 'latency ' + (e.delay.ms !== undefined ? e.delay.ms + ' ms' : e.delay.distribution);
    else if (e.type === 'concurrency') what = 'in-flight cap ' + e.cap;
    else if (e.type === 'quota') what = 'quota ' + e.limit + ' per ' + span(e.window);
    var scope = [m.route, m.method, m.keyId, m.websiteId, m.identity].filter(Boolean).join(' ');
    var share = m.probability !== undefined && m.probability < 1 ? ' · ' + Math.round(m.probability * 100) + '%' : '';
    return what + (scope ? ' · ' + scope : ' · all API requests') + share;
  }

  function renderScenarios(listing, nowMs) {
    var box = $('scenarios-list');
    var active = listing.active;
    setText('scenarios-count', active.length ? active.length + ' running' : 'none running');
    var available = listing.available.map(function (s) { return s.name; }).join(', ');
    setText('scenarios-available', available ? 'Built-ins: ' + available + ' (POST /__sim/scenarios { "name": … }).' : '');
    if (!active.length) {
      box.replaceChildren(el('p', 'empty', 'No scenario is running.'));
      return;
    }
    box.replaceChildren.apply(box, active.map(function (s) {
      var card = el('div', 'scenario');
      card.setAttribute('data-scenario', s.name);
      var title = el('div', 'scenario-title');
      title.appendChild(el('span', 'strong', s.name));
      title.appendChild(el('span', 'muted', ' started ' + timeOfDay(s.startedAt) + ' UTC, ' + duration(Math.max(0, nowMs - s.startedAt)) + ' ago'));
      card.appendChild(title);
      card.appendChild(el('div', 'muted small', s.description));
      var end = s.startedAt;
      s.steps.forEach(function (st) { end = Math.max(end, st.until !== null ? st.until : st.from + 60000); });
      end = Math.max(end, nowMs);
      var total = Math.max(1, end - s.startedAt);
      var pos = function (t) { return (Math.min(Math.max(t - s.startedAt, 0), total) / total * 100).toFixed(2) + '%'; };
      s.steps.forEach(function (st) {
        var row = el('div', 'step step-' + st.state);
        row.appendChild(el('div', 'step-label', (st.name || st.effect.type) + ' — ' + st.state));
        var track = el('div', 'track');
        var bar = el('div', 'bar');
        bar.style.left = pos(st.from);
        var stop = st.until !== null ? st.until : end;
        bar.style.width = 'calc(' + pos(stop) + ' - ' + pos(st.from) + ')';
        if (st.until === null) bar.classList.add('open');
        bar.title = effectText(st);
        track.appendChild(bar);
        var now = el('div', 'now');
        now.style.left = pos(nowMs);
        track.appendChild(now);
        row.appendChild(track);
        row.appendChild(el('div', 'step-effect muted small', '+' + duration(st.from - s.startedAt) + (st.until !== null ? ' → +' + duration(st.until - s.startedAt) : ' → until stopped') + ' · ' + effectText(st)));
        card.appendChild(row);
      });
      return card;
    }));
  }

  // ---- the loop -----------------------------------------------------------------------------

  function renderClock(clock) {
    setText('clock-mode', clock.mode);
    setText('clock-iso', clock.iso);
    $('clock-iso').setAttribute('data-now', String(clock.now));
  }

  function poll() {
    timer = null;
    // A hidden tab does not poll; it catches up when shown again.
    if (document.hidden) return Promise.resolve(schedule());
    return api('/__sim/clock').then(function (clock) {
      renderClock(clock);
      return Promise.all([api('/__sim/limits'), api('/__sim/scenarios'), pollJournal(clock.now)]).then(function (answers) {
        renderKeys(answers[0]);
        renderScenarios(answers[1], clock.now);
        renderTotals(answers[2]);
        renderRecent();
        if (!chart) chart = window.SimCharts.decisions($('chart'), chartData(clock.now), 260);
        else chart.update(chartData(clock.now));
        setText('updated', 'updated ' + new Date().toLocaleTimeString('en-GB'));
        document.body.setAttribute('data-polls', String(Number(document.body.getAttribute('data-polls') || '0') + 1));
        if ($('status').className === 'status bad' && $('status').getAttribute('data-sticky') !== 'true') status('', false);
      });
    }).catch(function (error) {
      status(String(error.message || error), true);
    }).then(schedule);
  }

  function schedule() {
    if (timer === null) timer = setTimeout(poll, POLL_MS);
  }

  function now() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    return poll();
  }

  function act(promise, done) {
    $('status').setAttribute('data-sticky', 'true');
    return promise.then(function (answer) {
      status(done(answer), false);
    }).catch(function (error) {
      status(String(error.message || error), true);
    }).then(function () {
      $('status').setAttribute('data-sticky', 'false');
      return now();
    });
  }

  function advance(ms) {
    return act(post('/__sim/clock', { advanceMs: ms }), function (clock) {
      renderClock(clock);
      return 'Advanced the clock by ' + span(ms) + ' to ' + clock.iso + '.';
    });
  }

  document.querySelectorAll('[data-advance]').forEach(function (button) {
    button.addEventListener('click', function () { advance(Number(button.getAttribute('data-advance'))); });
  });

  $('advance-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var ms = Number($('advance-ms').value);
    if (!Number.isInteger(ms) || ms < 0) { status('Advance by a whole number of milliseconds, 0 or more.', true); return; }
    advance(ms);
  });

  $('set-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var raw = $('set-now').value.trim();
    if (!raw) { status('Give an instant: ISO 8601 (2025-06-02T12:05:00Z) or epoch milliseconds.', true); return; }
    var value = /^\d+$/.test(raw) ? Number(raw) : raw;
    act(post('/__sim/clock', { now: value }), function (clock) {
      renderClock(clock);
      return 'Set the clock to ' + clock.iso + '.';
    });
  });

  $('reset').addEventListener('click', function () {
    if (!window.confirm('Reset the simulator to its seeded state? Limits, journal, scenarios and the clock start over.')) return;
    act(post('/__sim/reset', {}), function (answer) {
      state = fresh();
      return 'Reset: seed ' + answer.seed + ', clock at ' + answer.clock.iso + '.';
    });
  });

  poll();
})();
`;
