/**
 * The page's loop: once a second, the clock, then `GET /__sim/limits`, `GET /__sim/scenarios`,
 * `GET /__sim/health` (a shared store that lost its data) and the journal's new decisions, drawn together. A hidden tab does not poll; it catches up
 * when shown again.
 */
import { decisions, type ChartHandle } from './charts.js';
import type { DecisionSeries } from './chart-data.js';
import { renderClock } from './clock-panel.js';
import { getJson } from './control-api.js';
import { byId, setText } from './dom.js';
import type { JournalReader } from './journal-reader.js';
import { renderKeys } from './keys-panel.js';
import { renderRecent } from './requests-panel.js';
import { renderScenarios } from './scenarios-panel.js';
import { messageOf, showsPollingError, showStatus } from './status-line.js';
import { describeStoreLoss } from './store-notice.js';
import { renderTotals } from './totals-panel.js';
import type { ClockSnapshot, HealthReport, LimitsReport, ScenarioListing } from './wire.js';

/** Milliseconds between two polls. */
const POLL_MS = 1000;

/** The loop's controls. */
export interface Poller {
  /** Polls at once (after an action), then keeps the pace. */
  pollNow(): Promise<void>;
}

/** Starts polling for the page, reading the journal with `reader`. */
export function startPolling(reader: JournalReader): Poller {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chart: ChartHandle<DecisionSeries> | null = null;

  async function draw(): Promise<void> {
    const clock = await getJson<ClockSnapshot>('/__sim/clock');
    renderClock(clock);
    const [limits, scenarios, info, health] = await Promise.all([
      getJson<LimitsReport>('/__sim/limits'),
      getJson<ScenarioListing>('/__sim/scenarios'),
      reader.poll(clock.now),
      getJson<HealthReport>('/__sim/health'),
    ]);
    renderKeys(limits);
    renderScenarios(scenarios, clock.now);
    renderTotals(reader.tally, info);
    renderRecent(byId('requests-body'), reader.tally);
    if (!chart) chart = decisions(byId('chart'), reader.chartData(clock.now), 260);
    else chart.update(reader.chartData(clock.now));
    setText('updated', `updated ${new Date().toLocaleTimeString('en-GB')}`);
    document.body.setAttribute('data-polls', String(Number(document.body.getAttribute('data-polls') ?? '0') + 1));
    // A store that lost its data stays said on the status line, as an error, until the page reloads.
    const loss = describeStoreLoss(health);
    if (loss !== null && byId('status').getAttribute('data-sticky') !== 'true') showStatus(loss, true);
    else if (showsPollingError()) showStatus('', false);
  }

  async function poll(): Promise<void> {
    timer = null;
    if (!document.hidden) {
      try {
        await draw();
      } catch (error) {
        showStatus(messageOf(error), true);
      }
    }
    schedule();
  }

  function schedule(): void {
    if (timer === null) timer = setTimeout(() => void poll(), POLL_MS);
  }

  void poll();
  return {
    pollNow() {
      if (timer !== null) {
        clearTimeout(timer);
        timer = null;
      }
      return poll();
    },
  };
}
