/** The totals above the chart: one per outcome, all refusals together, and what they were counted over. */
import { OUTCOMES } from './charts.js';
import { setText } from './dom.js';
import { count } from './format.js';
import type { Tally } from './journal-reader.js';
import type { JournalInfo } from './wire.js';

/** Writes the tally's totals into the `[data-outcome]` boxes and the note under the chart. */
export function renderTotals(tally: Tally, info: JournalInfo): void {
  let refused = 0;
  for (const o of OUTCOMES) {
    const total = tally.totals[o] ?? 0;
    if (o !== 'admitted') refused += total;
    const box = document.querySelector(`[data-outcome="${o}"]`);
    if (box) {
      const value = box.querySelector('.value');
      if (value) value.textContent = count(total);
      box.classList.toggle('zero', !total);
    }
  }
  setText('count-refused', count(refused));
  let note = `Counted over the ${count(tally.seen)} decisions this page has read`;
  if (info.size > tally.seen) note += ` (the journal holds ${count(info.size)})`;
  if (tally.unseen) note += `; ${count(tally.unseen)} went by too fast to read`;
  if (!info.complete) note += `; the journal is incomplete since ${new Date(info.since).toISOString()}`;
  setText('totals-note', `${note}.`);
}
