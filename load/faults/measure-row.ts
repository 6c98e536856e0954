/**
 * One row of the fault table, measured: a fresh Redis (the row's setup), `serve --workers 2` on
 * it, the ingest-burst plan driven by the load runner (load/runner.ts `runPlan`, judged by its
 * oracle) with the row's fault injected mid-run, then the acknowledged records counted back
 * through the Query API and the journal compared with the answers the load tool saw.
 */
import { runPlan, startSimulators, type Report, type Server } from '../runner.js';
import { childrenOf, type FaultRow, type FaultSetup, type Injected } from './fault-rows.js';

/** How a row's load runs. */
export interface RowLoad {
  /** Seconds of load. */
  readonly duration: number;
  /** Seconds into the load when the fault is injected. */
  readonly faultAt: number;
  /** Requests per second offered (POST /track with key_acme_track, 600 a minute admitted). */
  readonly rate: number;
  readonly connections: number;
}

/** What one row measured. */
export interface RowResult {
  readonly row: FaultRow;
  readonly injected: Injected | null;
  /** Answers the load tool and the recovery probe got, by status; `0`: no answer (timeout, reset, refused connection). */
  readonly statuses: Record<string, number>;
  /** The longest a request waited for its answer, ms. */
  readonly slowestMs: number;
  /** From the fault's end to the first answer (2xx or 429) to a probe sent after it, ms; null: none came. */
  readonly recoveryMs: number | null;
  /** The server oracle's accuracy over the run's journal, % (null: it could not be read). */
  readonly accuracy: number | null;
  /** POST /track answered 2xx during the run. */
  readonly acknowledged: number;
  /** Those records counted back through the Query API after recovery (null: it never answered). */
  readonly counted: number | null;
  /** Acknowledged records the Query API no longer counts (null: not counted). */
  readonly recordsLost: number | null;
  /** Answers other than 503 and no-answer that the journal does not hold (null: not read). */
  readonly journalLost: number | null;
  /** What `GET /__sim/health` said after the run, in one line. */
  readonly health: string;
  /** Whether health said the store lost its data (`store.dataLoss`); null: health did not answer. */
  readonly lossReported: boolean | null;
  /** What went wrong in the measurement itself (a setup that did not start, a fault that failed). */
  readonly problems: readonly string[];
}

interface Answer {
  readonly status: number;
  readonly sentAt: number;
  readonly answeredAt: number;
  /** An answer to the recovery probe (GET /v1/query/types every 50 ms), not to the plan's load. */
  readonly probe: boolean;
}

/** How often the recovery probe asks, ms. */
const PROBE_EVERY_MS = 50;

/**
 * The recovery probe: one GET /v1/query/types (key_acme_read) every {@link PROBE_EVERY_MS} ms,
 * one at a time, each given up after 10 s, until `until` (a `Date.now()` instant) or `stop` is aborted. The load tool cannot time
 * recovery itself: at a set rate autocannon sends each connection's share of a second in a
 * burst, so after a run of fast 503s it sends nothing until the next second begins.
 */
async function probe(url: string, until: number, stop: AbortSignal, answers: Answer[]): Promise<void> {
  const fixtures = await tryJson<{ apiKeys: { id: string; secret: string | null }[] }>(`${url}/__sim/fixtures`);
  const secret = fixtures?.apiKeys.find((k) => k.id === 'key_acme_read')?.secret;
  if (!secret) return;
  while (!stop.aborted && Date.now() < until) {
    const sentAt = Date.now();
    let status = 0;
    try {
      const res = await fetch(`${url}/v1/query/types`, { headers: { 'x-api-key': secret }, signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = 0;
    }
    answers.push({ status, sentAt, answeredAt: Date.now(), probe: true });
    await pause(Math.max(0, sentAt + PROBE_EVERY_MS - Date.now()));
  }
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Fetches JSON, or null when nothing (or not 200) answers within `timeoutMs`. */
async function tryJson<T>(url: string, init: RequestInit = {}, timeoutMs = 5_000): Promise<T | null> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (res.status !== 200) return null;
    return (await res.json()) as T;
  } catch {
    return null;
  }
}

/** Counts the plan's records (custom event `load_burst`, today) through the Query API; waits up to `waitMs` for an answer. */
async function countRecords(url: string, waitMs: number): Promise<number | null> {
  const fixtures = await tryJson<{ apiKeys: { id: string; secret: string | null }[] }>(`${url}/__sim/fixtures`);
  const secret = fixtures?.apiKeys.find((k) => k.id === 'key_acme_read')?.secret;
  if (!secret) return null;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const body = await tryJson<{ data: { data: { total_events: number }[] }[] }>(`${url}/v1/query?website_id=web_acme_store`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': secret },
      body: JSON.stringify({ parameters: ['custom_events_summary'], preset: 'today', filters: [{ field: 'event_name', op: 'eq', value: 'load_burst' }] }),
    });
    const total = body?.data[0]?.data[0]?.total_events;
    if (typeof total === 'number') return total;
    if (Date.now() > deadline) return null;
    await pause(200);
  }
}

/** Answers the journal lacks: per status (503 and no-answer left out: those may never be numbered), seen minus journaled /track entries. */
async function countJournalLost(url: string, answers: readonly Answer[]): Promise<number | null> {
  const journal = await tryJson<{ entries: { path: string; status: number }[] }>(`${url}/__sim/journal`, {}, 15_000);
  if (!journal) return null;
  const journaled = new Map<number, number>();
  for (const entry of journal.entries) if (entry.path.startsWith('/track')) journaled.set(entry.status, (journaled.get(entry.status) ?? 0) + 1);
  const seen = new Map<number, number>();
  for (const { status, probe: probing } of answers) if (!probing && status !== 0 && status !== 503) seen.set(status, (seen.get(status) ?? 0) + 1);
  let lost = 0;
  for (const [status, n] of seen) lost += Math.max(0, n - (journaled.get(status) ?? 0));
  return lost;
}

/** Runs one row in a fresh setup and stops everything it started. */
export async function measureRow(row: FaultRow, load: RowLoad, progress: (line: string) => void = () => undefined): Promise<RowResult> {
  const problems: string[] = [];
  const answers: Answer[] = [];
  let injected: Injected | null = null;
  let setup: FaultSetup | null = null;
  let servers: Server[] = [];
  let report: Report | null = null;
  let counted: number | null = null;
  let journalLost: number | null = null;
  let health = 'not read';
  let lossReported: boolean | null = null;
  try {
    setup = await row.setup();
    servers = await startSimulators({ store: setup.store, workers: 2 });
    const server = servers[0]!;
    const primary = server.child.pid ?? 0;
    const context = { setup, workers: () => childrenOf(primary) };
    const during = async (): Promise<void> => {
      await pause(load.faultAt * 1000);
      try {
        injected = await row.inject(context);
      } catch (error) {
        problems.push(`the fault failed: ${(error as Error).message}`);
      }
    };
    const stopProbe = new AbortController();
    try {
      report = await runPlan('ingest-burst', server.url, { duration: load.duration, rate: load.rate, connections: load.connections }, progress, {
        answered: (status, sentAt, answeredAt) => answers.push({ status, sentAt, answeredAt, probe: false }),
        // The probe asks as long as the load runs.
        during: () => Promise.all([during(), probe(server.url, Date.now() + load.duration * 1000, stopProbe.signal, answers)]).then(() => undefined),
      });
    } catch (error) {
      problems.push(`the run stopped: ${(error as Error).message}`);
    } finally {
      stopProbe.abort();
    }
    counted = await countRecords(server.url, 15_000);
    journalLost = await countJournalLost(server.url, answers);
    const said = await tryJson<Record<string, unknown>>(`${server.url}/__sim/health`);
    health = said === null ? 'no answer' : JSON.stringify({ ok: said.ok, ...(said.store !== undefined ? { store: said.store } : {}) });
    if (said !== null) lossReported = ((said.store as { dataLoss?: unknown } | undefined)?.dataLoss ?? null) !== null;
  } catch (error) {
    problems.push((error as Error).message);
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
    await setup?.stop().catch(() => undefined);
  }

  const statuses: Record<string, number> = {};
  let slowestMs = 0;
  for (const a of answers) {
    statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    slowestMs = Math.max(slowestMs, a.answeredAt - a.sentAt);
  }
  const ended = (injected as Injected | null)?.ended;
  const probed = answers.filter((a) => a.probe);
  const firstAfter = ended === undefined ? undefined : probed.filter((a) => a.sentAt >= ended && (a.status === 429 || (a.status >= 200 && a.status < 300))).sort((a, b) => a.answeredAt - b.answeredAt)[0];
  const acknowledged = answers.filter((a) => !a.probe && a.status >= 200 && a.status < 300).length;
  const finished = report as Report | null;
  return {
    row,
    injected,
    statuses,
    slowestMs,
    recoveryMs: firstAfter === undefined || ended === undefined ? null : firstAfter.answeredAt - ended,
    accuracy: finished?.oracle.accuracy ?? null,
    acknowledged,
    counted,
    recordsLost: counted === null ? null : Math.max(0, acknowledged - counted),
    journalLost,
    health,
    lossReported,
    problems,
  };
}
