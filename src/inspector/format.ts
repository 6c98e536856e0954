/** How the page writes instants, spans and counts (UTC, English). Pure: no DOM. */

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** `HH:MM:SS.mmm` of an epoch-ms instant, in UTC. */
export function timeOfDay(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(d.getUTCMilliseconds(), 3)}`;
}

/** A window's length in its largest whole unit: `1 h`, `10 min`, `60 s`, `1500 ms`. */
export function span(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** An elapsed time, rounded for reading: `0 s`, `250 ms`, `12.5 s`, `3 min 20 s`. */
export function duration(ms: number): string {
  if (ms === 0) return '0 s';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min${seconds ? ` ${seconds} s` : ''}`;
}

/** When something `ms` from now happens: `now`, `in 2.5 s`, `in 42 s`. */
export function inSeconds(ms: number): string {
  return ms <= 0 ? 'now' : `in ${ms < 10_000 ? (ms / 1000).toFixed(1) : Math.ceil(ms / 1000)} s`;
}

/** A count with thousands separators: `12,345`. */
export function count(n: number): string {
  return Number(n).toLocaleString('en-US');
}
