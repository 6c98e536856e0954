/**
 * The fault table: the measured rows as aligned text (the terminal) or markdown (docs/reliability.md),
 * and the verdict `npm run faults` exits with.
 */
import type { RowResult } from './measure-row.js';

/** How long after a fault's end a row may take to answer again. */
export const RECOVERY_LIMIT_MS = 5_000;

const statusText = (statuses: Record<string, number>): string =>
  Object.entries(statuses)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([code, n]) => `${code === '0' ? 'no answer' : code}: ${n}`)
    .join(', ') || 'none';

const orDash = (value: number | null, unit = ''): string => (value === null ? '—' : `${value}${unit}`);

/** The columns of one row. */
function cells(result: RowResult): string[] {
  return [
    result.row.name,
    statusText(result.statuses),
    `${Math.round(result.slowestMs)} ms`,
    result.recoveryMs === null ? 'none' : `${(result.recoveryMs / 1000).toFixed(2)} s`,
    orDash(result.accuracy, '%'),
    `${result.acknowledged}`,
    result.recordsLost === null ? '— (not counted)' : `${result.recordsLost}${result.row.keepsData ? '' : ' (Redis lost data)'}`,
    orDash(result.journalLost),
    result.lossReported === null ? '—' : result.lossReported ? 'data lost' : 'ok',
  ];
}

const HEADERS = ['fault', 'answers (status: count)', 'slowest', 'recovery', 'oracle', 'acked', 'acked lost', 'journal lost', 'health says'];

/** The table as aligned text lines, with each row's problems after it. */
export function formatTable(results: readonly RowResult[]): string[] {
  const rows = results.map(cells);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: readonly string[]): string => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [line(HEADERS), widths.map((w) => '-'.repeat(w)).join('  ')];
  results.forEach((result, k) => {
    out.push(line(rows[k]!));
    for (const p of verdictOf(result)) out.push(`  FAIL: ${p}`);
  });
  return out;
}

/** The table as markdown. */
export function formatMarkdown(results: readonly RowResult[]): string {
  const row = (r: readonly string[]): string => `| ${r.join(' | ')} |`;
  return [row(HEADERS), row(HEADERS.map(() => '---')), ...results.map((r) => row(cells(r)))].join('\n');
}

/**
 * Why a row fails, empty when it passes: a 500, a request without an answer (dropped or past
 * the load tool's 10 s timeout) unless the fault itself cuts connections, an acknowledged record lost while Redis kept its data, no
 * recovery within {@link RECOVERY_LIMIT_MS} of the fault's end, a data loss that health does not
 * report (or one it reports where Redis kept its data), or a measurement that broke.
 */
export function verdictOf(result: RowResult): string[] {
  const out = [...result.problems];
  if ((result.statuses['500'] ?? 0) > 0) out.push(`${result.statuses['500']} answer(s) 500`);
  const unanswered = result.statuses['0'] ?? 0;
  if (unanswered > 0 && !result.row.dropsConnections) out.push(`${unanswered} request(s) without an answer (dropped, or past 10 s)`);
  if (result.row.keepsData && result.recordsLost === null) out.push('the acknowledged records could not be counted back');
  if (result.row.keepsData && (result.recordsLost ?? 0) > 0) out.push(`${result.recordsLost} acknowledged record(s) lost while Redis kept its data`);
  if (result.lossReported === false && !result.row.keepsData) out.push('Redis lost its data and GET /__sim/health did not say so');
  if (result.lossReported === true && result.row.keepsData) out.push('GET /__sim/health says the store lost its data, though Redis kept it');
  if (result.injected !== null && (result.recoveryMs === null || result.recoveryMs > RECOVERY_LIMIT_MS)) {
    out.push(`no answer within ${RECOVERY_LIMIT_MS / 1000} s of the fault's end`);
  }
  return out;
}
