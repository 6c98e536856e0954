/**
 * The bench's admission work, the same for every row that measures it: a closed loop of one
 * quota-enabled key's cheap queries against a simulator with limits on, on the real clock
 * (5,000 requests to warm up, then 90,000 measured, so the whole run fits the journal's
 * 100,000 entries and every decision is judged), followed by the simulator's own oracle over
 * its journal (`GET /__sim/journal/oracle`; with a shared store, every process's decisions).
 */
import autocannon from 'autocannon';

/** Requests sent before the measured ones (not counted). */
export const WARM_UP_REQUESTS = 5_000;
/** Requests measured. */
export const MEASURED_REQUESTS = 90_000;

/** One request of the work, repeated: the path (with its query string), headers and body. */
export interface AdmissionRequest {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** What `GET /__sim/journal/oracle` answers, without its disagreement list. */
export interface OracleVerdict {
  readonly checked: number;
  readonly skipped: number;
  readonly overAdmissions: number;
  readonly underAdmissions: number;
  readonly accuracy: number;
}

/** One measured run of the admission work. */
export interface AdmissionResult {
  /** Measured requests per second (answers of every status). */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly non2xx: number;
  readonly oracle: OracleVerdict;
  /** The journal after the run: decisions kept and dropped. */
  readonly journal: { readonly size: number; readonly dropped: number };
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * Runs the admission work against the simulator at `baseUrl` (no trailing slash) with
 * `connections` connections, then reads its oracle and journal info.
 */
export async function measureAdmissionWork(baseUrl: string, request: AdmissionRequest, connections: number): Promise<AdmissionResult> {
  const target = { url: `${baseUrl}${request.path}`, method: 'POST' as const, headers: request.headers, body: request.body };
  await autocannon({ connections, amount: WARM_UP_REQUESTS, ...target });
  // Timed to the last answer: autocannon ends a run of a fixed amount only at its next one-second
  // sample, which would round every rate here to the amount over whole seconds.
  const began = performance.now();
  let lastAnswer = began;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon({ connections, amount: MEASURED_REQUESTS, ...target }, (error, done) => (error ? reject(error) : resolve(done)));
    run.on('response', () => {
      lastAnswer = performance.now();
    });
  });
  const seconds = (lastAnswer - began) / 1000;
  const oracle = await getJson<OracleVerdict>(`${baseUrl}/__sim/journal/oracle`);
  const { info } = await getJson<{ info: { size: number; dropped: number } }>(`${baseUrl}/__sim/journal?limit=1`);
  return {
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    oracle: { checked: oracle.checked, skipped: oracle.skipped, overAdmissions: oracle.overAdmissions, underAdmissions: oracle.underAdmissions, accuracy: oracle.accuracy },
    journal: { size: info.size, dropped: info.dropped },
  };
}
