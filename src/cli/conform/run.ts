import { UsageError } from '../read-json-file.js';
import { AUTH_PROBES } from './auth.js';
import { catalogueChecks } from './catalogue.js';
import { ConformClient, type ConformDeps } from './client.js';
import { ERROR_PROBES } from './errors.js';
import { limitChecks } from './limits.js';
import type { ConformOptions } from './options.js';
import { runProbes } from './probe.js';
import { buildReport, type CheckResult, type ConformGroup, type ConformReport } from './report.js';
import { shapeChecks } from './shapes.js';

/** The run cannot start: the target does not answer, is not the API, or refuses the key. Exit 2. */
export class ConformAbort extends UsageError {}

/** What a group is given. */
interface GroupContext {
  readonly client: ConformClient;
  readonly options: ConformOptions;
  /** Website ids the key reaches (from `GET /v1/query/websites`), for hints. */
  readonly reachable: readonly string[];
}

/** Each group's run. Limits judges every answer of the run, so it runs last whatever the table order. */
const GROUP_RUNS: readonly (readonly [ConformGroup, (ctx: GroupContext) => Promise<CheckResult[]>])[] = [
  ['catalogue', (ctx) => catalogueChecks(ctx.client)],
  ['shapes', (ctx) => shapeChecks(ctx.client, ctx.options, ctx.reachable)],
  ['auth', (ctx) => runProbes(AUTH_PROBES, ctx.client, ctx.options)],
  ['errors', (ctx) => runProbes(ERROR_PROBES, ctx.client, ctx.options)],
  ['limits', async (ctx) => limitChecks(ctx.client.answers)],
];

/**
 * Asks the target which websites the key reaches: it answers (else the run stops: a wrong
 * --target), as the API (JSON), and without refusing the key with 401.
 */
export async function preflight(client: ConformClient, target: string): Promise<string[]> {
  const answer = await client.send({ method: 'GET', path: '/v1/query/websites', credential: 'key' });
  if (answer.status === 0) {
    throw new ConformAbort(`${target} does not answer (${answer.failure}). Check --target, or start a simulator there: analytics-sim serve.`);
  }
  if (answer.json === undefined || answer.status === 404) {
    const what = answer.json === undefined ? `${answer.status} and no JSON` : '404';
    throw new ConformAbort(`${target} answered GET /v1/query/websites with ${what}: --target must be the API's base URL (e.g. https://api.databuddy.cc).`);
  }
  const code = (answer.json as { code?: unknown }).code;
  if (answer.status === 401) throw new ConformAbort(`${target} refused the key (401 ${String(code ?? '')}): pass an API key of that deployment with --key.`);
  const websites = (answer.json as { websites?: unknown }).websites;
  return Array.isArray(websites) ? websites.flatMap((w) => (typeof (w as { id?: unknown }).id === 'string' ? [(w as { id: string }).id] : [])) : [];
}

/**
 * Runs the chosen groups against `options.target` over the injected `fetch`, and reports each
 * check beside the live service's answer. Throws {@link ConformAbort} when the run cannot start.
 */
export async function runConformance(options: ConformOptions, deps: ConformDeps): Promise<ConformReport> {
  const client = new ConformClient(options.target, options.key, deps);
  const reachable = await preflight(client, options.target);
  const context: GroupContext = { client, options, reachable };
  const results: CheckResult[] = [];
  for (const [group, run] of GROUP_RUNS) if (options.groups.includes(group)) results.push(...(await run(context)));
  return buildReport(options.target, options.groups, results, client.notes);
}
