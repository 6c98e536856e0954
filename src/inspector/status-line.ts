/**
 * The header's status line (`#status`): what the last action did, or what failed. An error
 * clears once a poll succeeds; while an action runs, polls leave the line to it.
 */
import { byId } from './dom.js';

/** Shows `text`, as an error when `bad`. */
export function showStatus(text: string, bad: boolean): void {
  const node = byId('status');
  node.textContent = text;
  node.className = bad ? 'status bad' : 'status';
}

/** Whether the line shows an error that a poll which succeeded may clear (no action is running). */
export function showsPollingError(): boolean {
  const node = byId('status');
  return node.className === 'status bad' && node.getAttribute('data-sticky') !== 'true';
}

/** Marks an action as running (`held`) or done. */
export function holdStatus(held: boolean): void {
  byId('status').setAttribute('data-sticky', String(held));
}

/** An error's message for the status line. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || String(error) : String(error);
}
