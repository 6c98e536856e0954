/** The API keys table (`#keys-body`): each key's quota, its other windows and its requests in flight. */
import { byId, el, setText } from './dom.js';
import { inSeconds, span } from './format.js';
import type { KeyLimits, LimitsReport } from './wire.js';

/** The windows' names as the table's narrow column shows them. */
const SHORT_NAMES: Readonly<Record<string, string>> = { 'query:execute': 'execute', 'query:compile': 'compile', track: 'track' };

/** A bar filled to `used` of `limit`, marked `high` from 80% and `full` at 100%. */
function meter(used: number | null, limit: number, kind: string): HTMLSpanElement {
  const outer = el('span', `meter ${kind}`);
  const inner = el('span', 'fill');
  const share = limit > 0 && used !== null ? Math.min(1, used / limit) : 0;
  inner.style.width = `${(share * 100).toFixed(1)}%`;
  if (share >= 1) outer.classList.add('full');
  else if (share >= 0.8) outer.classList.add('high');
  outer.appendChild(inner);
  return outer;
}

const orUnknown = (n: number | null): string | number => (n === null ? '?' : n);

function quotaCell(k: KeyLimits, now: number): HTMLTableCellElement {
  const cell = el('td', 'quota');
  const q = k.quota;
  if (!q) {
    cell.appendChild(el('span', 'muted', 'no quota'));
    return cell;
  }
  const head = el('div', 'line');
  head.appendChild(meter(q.used, q.limit, 'quota'));
  const remaining = el('span', 'strong', orUnknown(q.remaining));
  remaining.setAttribute('data-testid', `quota-remaining-${k.id}`);
  head.appendChild(remaining);
  head.appendChild(el('span', 'muted', ` of ${q.limit} left · per ${span(q.windowMs)}`));
  cell.appendChild(head);
  const resetText = q.reset === null ? 'window empty' : (q.remaining === 0 ? 'next slot ' : 'oldest frees ') + inSeconds(q.reset - now);
  cell.appendChild(el('div', 'muted small', `${orUnknown(q.used)} used · ${resetText}`));
  return cell;
}

function windowsCell(k: KeyLimits, now: number): HTMLTableCellElement {
  const cell = el('td', 'windows');
  for (const w of k.windows) {
    const item = el('div', 'window');
    item.title = `${w.id}: ${w.limit} per ${span(w.windowMs)}${w.reset !== null ? `, next slot frees ${inSeconds(w.reset - now)}` : ''}`;
    item.appendChild(el('span', 'wname', SHORT_NAMES[w.name] ?? w.name));
    item.appendChild(meter(w.used, w.limit, 'small'));
    item.appendChild(el('span', 'mono small', `${orUnknown(w.used)}/${w.limit}`));
    cell.appendChild(item);
  }
  return cell;
}

function keyRow(k: KeyLimits, limits: LimitsReport): HTMLTableRowElement {
  const tr = el('tr', `key-${k.status}`);
  tr.setAttribute('data-key', k.id);
  const who = el('td', 'who');
  who.appendChild(el('span', 'mono strong', k.id));
  who.appendChild(el('span', 'muted small key-name', k.name));
  if (k.status !== 'active') who.appendChild(el('span', 'badge key-status', k.status));
  tr.appendChild(who);
  tr.appendChild(quotaCell(k, limits.now));
  tr.appendChild(windowsCell(k, limits.now));
  const flight = el('td', 'inflight');
  const inFlight = el('span', 'strong', k.inFlight);
  inFlight.setAttribute('data-testid', `inflight-${k.id}`);
  flight.appendChild(inFlight);
  flight.appendChild(el('span', 'muted', ` / ${limits.inFlight.cap}`));
  flight.appendChild(meter(k.inFlight, limits.inFlight.cap, 'flight'));
  tr.appendChild(flight);
  return tr;
}

/** Draws `GET /__sim/limits`'s answer. */
export function renderKeys(limits: LimitsReport): void {
  setText('inflight-total', limits.inFlight.total);
  setText('inflight-cap', limits.inFlight.cap);
  byId('store-note').textContent = limits.storeReadable ? '' : 'The admission store cannot be read: window figures are unknown.';
  byId('keys-body').replaceChildren(...limits.keys.map((k) => keyRow(k, limits)));
  setText('keys-note', limits.omittedKeys ? `${limits.omittedKeys} more keys not listed.` : '');
}
