/**
 * A client that does what SPEC 8.4 warns against: on any failure it retries at once, up to
 * 10 times, whatever the answer said. The retry audit catches it.
 *
 *   npx tsx examples/hammering-client.ts http://127.0.0.1:8787 dbdy_… web_acme_store
 */
import { realDeps, type ClientDeps } from './polite-client.js';

const MAX_ATTEMPTS = 11;

/** Runs one query, hammering on failure. Returns the last status and the number of attempts. */
export async function hammeringQuery(
  baseUrl: string,
  key: string,
  websiteId: string,
  body: unknown,
  deps: ClientDeps = realDeps,
): Promise<{ status: number | null; attempts: number }> {
  let status: number | null = null;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    try {
      const res = await deps.fetch(`${baseUrl}/v1/query?website_id=${encodeURIComponent(websiteId)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(body),
      });
      status = res.status;
      await res.text();
      if (res.ok) return { status, attempts: attempt };
    } catch {
      status = null;
    }
  }
  return { status, attempts: MAX_ATTEMPTS };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl = 'http://127.0.0.1:8787', key = '', websiteId = 'web_acme_store'] = process.argv.slice(2);
  const result = await hammeringQuery(baseUrl, key, websiteId, { parameters: ['summary_metrics'], preset: 'last_7d' });
  process.stdout.write(`${result.status} after ${result.attempts} attempt(s)\n`);
}
