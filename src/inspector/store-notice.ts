/**
 * What the inspector says about the shared store: nothing while it holds what was written to
 * it; once `GET /__sim/health` reports that it lost its data (a Redis restarted without
 * persistence, or flushed), one line for the status line, the store's own message.
 */
import type { HealthReport } from './wire.js';

/** The line to show for `health`, or null when the store lost nothing (or there is none). */
export function describeStoreLoss(health: HealthReport): string | null {
  const loss = health.store?.dataLoss;
  if (!loss) return null;
  const times = loss.count === 1 ? '' : ` (${loss.count} times)`;
  return `Shared store: ${loss.message}${times}`;
}
