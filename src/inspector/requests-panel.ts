/** The table of the last requests (`#requests-body`), newest first, each with its decision and the reason. */
import { el } from './dom.js';
import { span, timeOfDay } from './format.js';
import type { Tally } from './journal-reader.js';
import type { JournalEntry } from './wire.js';

/** What the answer said was wrong: its code, the field at fault and why, and the fix. */
function refusalText(reason: NonNullable<JournalEntry['reason']>): string {
  const what = reason.field !== null ? `${reason.field}: ${reason.cause ?? reason.message}` : reason.cause !== null ? `${reason.message}: ${reason.cause}` : reason.message;
  return `${reason.code} ${what}${reason.fix !== null ? ` (fix: ${reason.fix})` : ''}`;
}

/** Why the decision went as it did, in words. */
export function reasonOf(e: JournalEntry): string {
  const parts: string[] = [];
  if (e.outcome === 'admitted') {
    parts.push(e.status >= 400 ? `admitted, then answered ${e.status} by the route` : 'within every limit');
    if (e.reason !== null) parts.push(refusalText(e.reason));
  } else if (e.outcome === 'concurrency') {
    parts.push(`${e.inFlight} of ${e.inFlightCap} already in flight`);
  } else if (e.outcome === 'scenario') {
    const f = e.faults[0];
    parts.push(f ? `${f.scenario} / ${f.name || `step ${f.step}`} (${f.effect})` : 'scenario fault');
  } else if (e.outcome === 'degraded') {
    parts.push('the admission store did not answer');
  } else {
    const c = e.checks.find((x) => !x.allowed);
    parts.push(c ? `${c.id} full: ${c.limit} per ${span(c.windowMs)}` : e.outcome);
  }
  if (e.retryAfter !== null) parts.push(`Retry-After ${e.retryAfter} s`);
  if (e.outcome !== 'scenario' && e.faults.length) parts.push(`touched by ${e.faults.map((f) => `${f.scenario} (${f.effect})`).join(', ')}`);
  if (e.warnings.length) parts.push(`${e.warnings.length}${e.warnings.length === 1 ? ' warning' : ' warnings'}`);
  return parts.join(' · ');
}

function requestRow(e: JournalEntry): HTMLTableRowElement {
  const tr = el('tr');
  tr.setAttribute('data-seq', String(e.seq));
  tr.appendChild(el('td', 'num', e.seq));
  tr.appendChild(el('td', 'mono', timeOfDay(e.at)));
  tr.appendChild(el('td', 'mono', e.method));
  const path = el('td', 'mono path', e.path);
  path.title = e.path;
  tr.appendChild(path);
  tr.appendChild(el('td', 'mono', e.identity));
  tr.appendChild(el('td', `num status-${String(e.status).charAt(0)}`, e.status));
  const decision = el('td');
  decision.appendChild(el('span', `badge outcome-${e.outcome}`, e.outcome === 'admitted' ? 'admitted' : `refused: ${e.outcome}`));
  tr.appendChild(decision);
  tr.appendChild(el('td', 'reason', reasonOf(e)));
  return tr;
}

/** Draws the tally's last decisions into `body`. */
export function renderRecent(body: HTMLElement, tally: Tally): void {
  const rows = tally.recent.slice().reverse().map(requestRow);
  if (!rows.length) {
    const empty = el('tr');
    const td = el('td', 'empty', 'No request yet: send one to the simulated API.');
    td.colSpan = 8;
    empty.appendChild(td);
    rows.push(empty);
  }
  body.replaceChildren(...rows);
}
