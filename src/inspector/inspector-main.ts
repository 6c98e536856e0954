/**
 * The inspector page's script (`GET /__sim/ui/inspector.js`, bundled with what it imports by
 * `npm run build:inspector`): polls the control plane once a second and draws what it answers.
 *
 * - `GET /__sim/clock`, `GET /__sim/limits`, `GET /__sim/scenarios`, and `GET /__sim/journal`
 *   incrementally (journal-reader.ts);
 * - the clock buttons `POST /__sim/clock` (`{ advanceMs }` or `{ now }`), the reset button
 *   `POST /__sim/reset` (clock-controls.ts).
 *
 * Data reaches the DOM only as `textContent` and attribute values, never as markup.
 */
import { wireClockControls } from './clock-controls.js';
import { JournalReader } from './journal-reader.js';
import { startPolling } from './poll-loop.js';

const reader = new JournalReader();
wireClockControls(startPolling(reader), reader);
