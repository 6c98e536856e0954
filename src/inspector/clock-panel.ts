/** The clock in the header: its mode and instant, as `GET`/`POST /__sim/clock` answer them. */
import { byId, setText } from './dom.js';
import type { ClockSnapshot } from './wire.js';

/** Writes the clock's mode and instant (its epoch ms in `data-now`). */
export function renderClock(clock: ClockSnapshot): void {
  setText('clock-mode', clock.mode);
  setText('clock-iso', clock.iso);
  byId('clock-iso').setAttribute('data-now', String(clock.now));
}
