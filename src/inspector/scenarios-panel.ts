/** The running scenarios (`#scenarios-list`), each step on a timeline from the scenario's start to now. */
import { byId, el, setText } from './dom.js';
import { duration, span, timeOfDay } from './format.js';
import type { RunningScenario, RunningStep, ScenarioListing } from './wire.js';

/** What a step does and to which requests, in one line. */
export function effectText(step: RunningStep): string {
  const e = step.effect;
  const m = step.match;
  let what: string = e.type;
  if (e.type === 'rate_limit') what = `429, Retry-After ${e.retryAfterSeconds} s`;
  else if (e.type === 'error') what = `${e.status} ${e.code}`;
  else if (e.type === 'latency') what = `latency ${'ms' in e.delay ? `${e.delay.ms} ms` : e.delay.distribution}`;
  else if (e.type === 'concurrency') what = `in-flight cap ${e.cap}`;
  else if (e.type === 'quota') what = `quota ${e.limit} per ${span(e.window)}`;
  const scope = [m.route, m.method, m.keyId, m.websiteId, m.identity].filter(Boolean).join(' ');
  const share = m.probability !== undefined && m.probability < 1 ? ` · ${Math.round(m.probability * 100)}%` : '';
  return `${what}${scope ? ` · ${scope}` : ' · all API requests'}${share}`;
}

function scenarioCard(s: RunningScenario, nowMs: number): HTMLDivElement {
  const card = el('div', 'scenario');
  card.setAttribute('data-scenario', s.name);
  const title = el('div', 'scenario-title');
  title.appendChild(el('span', 'strong', s.name));
  title.appendChild(el('span', 'muted', ` started ${timeOfDay(s.startedAt)} UTC, ${duration(Math.max(0, nowMs - s.startedAt))} ago`));
  card.appendChild(title);
  card.appendChild(el('div', 'muted small', s.description));
  // The timeline runs to the last step's end (an open step: a minute after its start), or now.
  let end = s.startedAt;
  for (const st of s.steps) end = Math.max(end, st.until !== null ? st.until : st.from + 60_000);
  end = Math.max(end, nowMs);
  const total = Math.max(1, end - s.startedAt);
  const pos = (t: number): string => `${((Math.min(Math.max(t - s.startedAt, 0), total) / total) * 100).toFixed(2)}%`;
  for (const st of s.steps) {
    const row = el('div', `step step-${st.state}`);
    row.appendChild(el('div', 'step-label', `${st.name || st.effect.type} — ${st.state}`));
    const track = el('div', 'track');
    const bar = el('div', 'bar');
    bar.style.left = pos(st.from);
    const stop = st.until !== null ? st.until : end;
    bar.style.width = `calc(${pos(stop)} - ${pos(st.from)})`;
    if (st.until === null) bar.classList.add('open');
    bar.title = effectText(st);
    track.appendChild(bar);
    const now = el('div', 'now');
    now.style.left = pos(nowMs);
    track.appendChild(now);
    row.appendChild(track);
    const until = st.until !== null ? ` → +${duration(st.until - s.startedAt)}` : ' → until stopped';
    row.appendChild(el('div', 'step-effect muted small', `+${duration(st.from - s.startedAt)}${until} · ${effectText(st)}`));
    card.appendChild(row);
  }
  return card;
}

/** Draws `GET /__sim/scenarios`'s answer at the clock's instant `nowMs`. */
export function renderScenarios(listing: ScenarioListing, nowMs: number): void {
  const box = byId('scenarios-list');
  const active = listing.active;
  setText('scenarios-count', active.length ? `${active.length} running` : 'none running');
  const available = listing.available.map((s) => s.name).join(', ');
  setText('scenarios-available', available ? `Built-ins: ${available} (POST /__sim/scenarios { "name": … }).` : '');
  if (!active.length) {
    box.replaceChildren(el('p', 'empty', 'No scenario is running.'));
    return;
  }
  box.replaceChildren(...active.map((s) => scenarioCard(s, nowMs)));
}
