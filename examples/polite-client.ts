/**
 * A client that retries the way SPEC 8.4 recommends: after a 429, a 503, another 5xx or a
 * dropped connection it waits max(1 s, Retry-After) plus a random jitter under 250 ms, at most
 * 3 times, and never retries other 4xx answers.
 *
 *   npx tsx examples/polite-client.ts http://127.0.0.1:8787 dbdy_… web_acme_store
 *
 * `fetch`, `sleep` and `random` are injectable, so a test can run it on a virtual clock.
 */

export interface ClientDeps {
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
}

export const realDeps: ClientDeps = {
  fetch: (url, init) => fetch(url, init),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

const MAX_RETRIES = 3;
const RETRYABLE = (status: number): boolean => status === 408 || status === 425 || status === 429 || status >= 500;

/** Runs one query, retrying politely. Returns the last answer's status and body (null after a network error). */
export async function politeQuery(
  baseUrl: string,
  key: string,
  websiteId: string,
  body: unknown,
  deps: ClientDeps = realDeps,
): Promise<{ status: number | null; body: unknown; attempts: number }> {
  for (let attempt = 0; ; attempt++) {
    let status: number | null = null;
    let payload: unknown = null;
    let retryAfter = 0;
    try {
      const res = await deps.fetch(`${baseUrl}/v1/query?website_id=${encodeURIComponent(websiteId)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(body),
      });
      status = res.status;
      payload = await res.json().catch(() => null);
      retryAfter = Number(res.headers.get('retry-after') ?? 0) || 0;
      if (!RETRYABLE(res.status)) return { status, body: payload, attempts: attempt + 1 };
    } catch {
      // A dropped connection is retryable like a 503 without Retry-After.
    }
    if (attempt === MAX_RETRIES) return { status, body: payload, attempts: attempt + 1 };
    await deps.sleep(Math.max(1000, retryAfter * 1000) + Math.floor(deps.random() * 200));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl = 'http://127.0.0.1:8787', key = '', websiteId = 'web_acme_store'] = process.argv.slice(2);
  const result = await politeQuery(baseUrl, key, websiteId, { parameters: ['summary_metrics'], preset: 'last_7d' });
  process.stdout.write(`${result.status} after ${result.attempts} attempt(s)\n`);
}
