/**
 * The header's controls: the +1 s … +1 h buttons and the "advance by" form (`POST /__sim/clock`
 * `{ advanceMs }`), the "set to" form (`{ now }`), and reset (`POST /__sim/reset`). Each action
 * says what it did in the status line, then the page polls at once.
 */
import { renderClock } from './clock-panel.js';
import { postJson } from './control-api.js';
import { byId } from './dom.js';
import { span } from './format.js';
import type { JournalReader } from './journal-reader.js';
import type { Poller } from './poll-loop.js';
import { holdStatus, messageOf, showStatus } from './status-line.js';
import type { ClockSnapshot, ResetAnswer } from './wire.js';

/** Wires the controls to the control plane. */
export function wireClockControls(poller: Poller, reader: JournalReader): void {
  async function act<T>(request: Promise<T>, done: (answer: T) => string): Promise<void> {
    holdStatus(true);
    try {
      showStatus(done(await request), false);
    } catch (error) {
      showStatus(messageOf(error), true);
    }
    holdStatus(false);
    return poller.pollNow();
  }

  function advance(ms: number): Promise<void> {
    return act(postJson<ClockSnapshot>('/__sim/clock', { advanceMs: ms }), (clock) => {
      renderClock(clock);
      return `Advanced the clock by ${span(ms)} to ${clock.iso}.`;
    });
  }

  for (const button of document.querySelectorAll<HTMLElement>('[data-advance]')) {
    button.addEventListener('click', () => void advance(Number(button.getAttribute('data-advance'))));
  }

  byId('advance-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const ms = Number(byId('advance-ms', HTMLInputElement).value);
    if (!Number.isInteger(ms) || ms < 0) {
      showStatus('Advance by a whole number of milliseconds, 0 or more.', true);
      return;
    }
    void advance(ms);
  });

  byId('set-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const raw = byId('set-now', HTMLInputElement).value.trim();
    if (!raw) {
      showStatus('Give an instant: ISO 8601 (2025-06-02T12:05:00Z) or epoch milliseconds.', true);
      return;
    }
    const now = /^\d+$/.test(raw) ? Number(raw) : raw;
    void act(postJson<ClockSnapshot>('/__sim/clock', { now }), (clock) => {
      renderClock(clock);
      return `Set the clock to ${clock.iso}.`;
    });
  });

  byId('reset').addEventListener('click', () => {
    if (!window.confirm('Reset the simulator to its seeded state? Limits, journal, scenarios and the clock start over.')) return;
    void act(postJson<ResetAnswer>('/__sim/reset', {}), (answer) => {
      reader.reset();
      return `Reset: seed ${answer.seed}, clock at ${answer.clock.iso}.`;
    });
  });
}
