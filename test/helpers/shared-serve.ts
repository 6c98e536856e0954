import { expect } from 'vitest';
import type { CliProcess } from './cli.js';
import { fetchAnswer } from './wire.js';

/** The base URL each `serve` process prints once it listens. */
export function listeningUrls(processes: readonly CliProcess[]): Promise<string[]> {
  return Promise.all(processes.map(async (cli) => (await cli.waitForStdout(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1] as string));
}

/**
 * Two `serve` processes of one store share one quota exactly: key_acme_quota's 10 per 60 s are
 * spent by alternating requests, the 11th is refused on whichever process gets it, and the journal
 * oracle (read at `oracleUrl`) finds no over- or under-admission.
 */
export async function expectOneQuotaAcross(urls: readonly string[], oracleUrl = urls[1] as string): Promise<void> {
  const fixtures = await fetchAnswer(`${urls[0]}/__sim/fixtures`);
  const key = (fixtures.json.apiKeys as { id: string; secret: string }[]).find((k) => k.id === 'key_acme_quota')!.secret;
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) statuses.push((await fetchAnswer(`${urls[i % urls.length]}/v1/query/websites`, { headers: { 'x-api-key': key } })).status);
  expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
  expect((await fetchAnswer(`${oracleUrl}/__sim/journal/oracle`)).json).toMatchObject({ overAdmissions: 0, underAdmissions: 0 });
}
