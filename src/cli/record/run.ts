import { findSecretPaths, MAX_MISSING_NOTES, MAX_RECORDING_ENTRIES, MAX_RECORDING_ROWS, RECORDING_VERSION, type RecordingInput } from '../../contract/recording.js';
import type { QueryTypeDefinition } from '../../sim/query/engine/definition.js';
import { parseDateInput, resolvePreset } from '../../sim/query/engine/dates.js';
import { DAY_MS } from '../../sim/model/world.js';
import { findQueryType } from '../../sim/query/registry.js';
import { UsageError } from '../read-json-file.js';
import { ConformClient, describeAnswer, type Answer, type ConformDeps } from '../conform/client.js';
import { LIVE_TYPES, PARAMETERS_PER_REQUEST, REQUIRED_FILTERS } from '../conform/expectations.js';
import { preflight } from '../conform/run.js';
import { DEFAULT_WEBSITES, type RecordOptions } from './options.js';

/** The run cannot start, or the target refused the key: a usage error (exit 2). */
export class RecordAbort extends UsageError {}

/** What a recording run made. */
export interface RecordingRun {
  /** The recording to write (also when incomplete). */
  readonly recording: RecordingInput;
  /** What was asked and not recorded, and why (empty: complete). */
  readonly missing: readonly string[];
  /** How the run was paced: waits for the limits. */
  readonly notes: readonly string[];
  /** Set when the target refused the key part-way: why (the run stopped there; exit 2). */
  readonly refused?: string;
  /** The websites and types asked. */
  readonly websites: readonly string[];
  readonly types: readonly string[];
}

/**
 * Parameters × days one request asks at most: a request of 50 types over a week, fewer over
 * longer ranges, so one request stays light for the deployment (the simulator refuses more
 * than 10,000 website-days a request).
 */
const WORK_PER_REQUEST = 3000;

/** One parameter of a query answer. */
interface AnsweredParameter {
  readonly parameter?: unknown;
  readonly success?: unknown;
  readonly error?: unknown;
  readonly data?: unknown;
}

/** The explicit dates of the range: a preset is resolved on the recorder's clock, in the queries' time zone. */
export function datesOf(options: RecordOptions, now: number): { startDate: string; endDate: string } {
  if ('preset' in options.range) {
    const [startDate, endDate] = resolvePreset(options.range.preset, now, options.timezone);
    return { startDate, endDate };
  }
  return options.range;
}

/** Whole days the range touches. */
function daysOf(range: { startDate: string; endDate: string }): number {
  const from = parseDateInput(range.startDate)?.ms ?? 0;
  const to = parseDateInput(range.endDate)?.ms ?? from;
  return Math.floor(to / DAY_MS) - Math.floor(from / DAY_MS) + 1;
}

/** The types the target's catalogue lists (`GET /v1/query/types`, public), or null when it cannot be read. */
async function catalogueOf(client: ConformClient): Promise<Set<string> | null> {
  const answer = await client.send({ method: 'GET', path: '/v1/query/types', credential: 'none' });
  const types = (answer.json as { types?: unknown } | undefined)?.types;
  return answer.status === 200 && Array.isArray(types) ? new Set(types.map(String)) : null;
}

/**
 * The types to ask: the ones given (a type the catalogue does not list, or whose longest range
 * the range passes, is missing), else every website type of the catalogue that needs no filter
 * and no paid plan and covers the range.
 */
function typesToAsk(options: RecordOptions, catalogue: Set<string> | null, days: number, missing: string[]): QueryTypeDefinition[] {
  const fits = (type: QueryTypeDefinition): boolean => type.maxRangeDays === undefined || days <= type.maxRangeDays;
  if (options.types === undefined) {
    return LIVE_TYPES.filter(
      (t) => t.target === 'website' && t.gate === undefined && t.liveGate === undefined && REQUIRED_FILTERS[t.name] === undefined && fits(t) && (catalogue === null || catalogue.has(t.name)),
    );
  }
  const types: QueryTypeDefinition[] = [];
  for (const name of options.types) {
    const type = findQueryType(name) as QueryTypeDefinition;
    if (catalogue !== null && !catalogue.has(name)) missing.push(`${name}: not in the target's catalogue (GET /v1/query/types)`);
    else if (!fits(type)) missing.push(`${name}: covers at most ${type.maxRangeDays} days; the range has ${days}`);
    else types.push(type);
  }
  return types;
}

/** The requests of one website: the types in groups a request may carry, types a plan gate covers apart. */
function batchesOf(types: readonly QueryTypeDefinition[], days: number): QueryTypeDefinition[][] {
  const size = Math.max(1, Math.min(PARAMETERS_PER_REQUEST, Math.floor(WORK_PER_REQUEST / days)));
  const batches: QueryTypeDefinition[][] = [];
  for (const part of [types.filter((t) => t.liveGate === undefined && t.gate === undefined), types.filter((t) => t.liveGate !== undefined || t.gate !== undefined)]) {
    for (let i = 0; i < part.length; i += size) batches.push(part.slice(i, i + size));
  }
  return batches;
}

/** Whether an answer refuses the key itself (not one website): 401, or 403 FORBIDDEN (a missing scope). */
function refusesKey(answer: Answer): boolean {
  const code = (answer.json as { code?: unknown } | undefined)?.code;
  return answer.status === 401 || (answer.status === 403 && code === 'FORBIDDEN');
}

/**
 * Records `options.types` of each website over the range from `options.target`, through the
 * conform client (paced under the endpoint's limit, the key's quota headers followed, a 429's
 * Retry-After waited out and retried). Throws {@link RecordAbort} when nothing can be recorded
 * (the target does not answer, is not the API, or refuses the key). A target that keeps
 * rate-limiting, stops answering or refuses the key part-way ends the run there: the recording
 * holds what was answered, and `missing` names the rest.
 */
export async function runRecording(options: RecordOptions, deps: ConformDeps): Promise<RecordingRun> {
  const client = new ConformClient(options.target, options.key, deps, { followQuota: true });
  let reachable: string[];
  try {
    reachable = await preflight(client, options.target);
  } catch (error) {
    throw new RecordAbort((error as Error).message);
  }
  const answered = client.answers.at(-1);
  if (answered !== undefined && refusesKey(answered)) {
    throw new RecordAbort(`${options.target} refused the key (${describeAnswer(answered)}): pass an API key of that deployment with read:data with --key.`);
  }
  if (answered?.status === 429 && options.websites === undefined) {
    throw new RecordAbort(`${options.target} kept answering GET /v1/query/websites with 429 (Retry-After ${answered.headers['retry-after'] ?? 'none'}): try again later, or name the websites with --website <id>.`);
  }
  const websites = options.websites ?? reachable.slice(0, DEFAULT_WEBSITES);
  if (websites.length === 0) throw new RecordAbort(`the key reaches no website on ${options.target}: name one with --website <id>.`);
  const range = datesOf(options, deps.now());
  const days = daysOf(range);
  const missing: string[] = [];
  const types = typesToAsk(options, await catalogueOf(client), days, missing);
  const entries: RecordingInput['entries'] = [];
  const query = (website: string): Record<string, string> => ({ website_id: website, ...(options.timezone !== 'UTC' ? { timezone: options.timezone } : {}) });
  let stopped: string | undefined;
  let refused: string | undefined;
  /** Websites the key does not reach (403 ACCESS_DENIED): not asked again. */
  const denied = new Map<string, string>();

  /** Asks one group of types on one website; returns false when the run must stop. */
  const ask = async (website: string, batch: readonly QueryTypeDefinition[]): Promise<boolean> => {
    const answer = await client.send({ method: 'POST', path: '/v1/query', query: query(website), body: { parameters: batch.map((t) => t.name), ...range }, credential: 'key' });
    const data = (answer.json as { data?: unknown } | undefined)?.data;
    if (answer.status === 200 && Array.isArray(data)) {
      const byName = new Map((data as AnsweredParameter[]).map((item) => [String(item.parameter), item]));
      for (const type of batch) {
        const item = byName.get(type.name);
        if (item?.success === true && Array.isArray(item.data)) {
          const secret = findSecretPaths(item.data)[0];
          if (secret !== undefined) {
            missing.push(`${type.name} on ${website}: row ${String(secret.path[0])} ${secret.why}; not written`);
            continue;
          }
          if (item.data.length > MAX_RECORDING_ROWS) {
            missing.push(`${type.name} on ${website}: ${item.data.length} rows, over the ${MAX_RECORDING_ROWS} an entry holds`);
            continue;
          }
          if (entries.length >= MAX_RECORDING_ENTRIES) {
            missing.push(`${type.name} on ${website}: over the ${MAX_RECORDING_ENTRIES} entries a recording holds`);
            continue;
          }
          entries.push({ type: type.name, scope: { website_id: website }, ...range, timezone: options.timezone, filters: [], granularity: 'daily', page: 1, rows: item.data as Record<string, unknown>[] });
        } else {
          missing.push(`${type.name} on ${website}: ${item === undefined ? 'no result for this parameter' : `failed (${typeof item.error === 'string' ? item.error : 'success is not true'})`}`);
        }
      }
      return true;
    }
    if (refusesKey(answer)) {
      refused = `${options.target} refused the key part-way (${describeAnswer(answer)})`;
      return false;
    }
    if (answer.status === 429 || answer.status === 0) {
      stopped = answer.status === 429 ? `the target kept answering 429 (${describeAnswer(answer)}, Retry-After ${answer.headers['retry-after'] ?? 'none'}) after the retries` : `the target stopped answering (${describeAnswer(answer)})`;
      return false;
    }
    if (answer.status === 403) denied.set(website, describeAnswer(answer));
    // A group refused whole (400, 402, 5xx …): each type alone, so one type's refusal names only itself.
    if (batch.length > 1 && answer.status !== 403) {
      for (const type of batch) if (!(await ask(website, [type]))) return false;
      return true;
    }
    for (const type of batch) missing.push(`${type.name} on ${website}: ${describeAnswer(answer)}`);
    return true;
  };

  const plan = websites.flatMap((website) => batchesOf(types, days).map((batch) => [website, batch] as const));
  for (const [i, [website, batch]] of plan.entries()) {
    const refusal = denied.get(website);
    if (refusal !== undefined) {
      for (const type of batch) missing.push(`${type.name} on ${website}: ${refusal}`);
      continue;
    }
    if (await ask(website, batch)) continue;
    const left = plan.slice(i).flatMap(([w, b]) => b.map((t) => `${t.name} on ${w}`));
    missing.push(`${left.length} parameter${left.length === 1 ? '' : 's'} not asked: ${stopped ?? refused} (from ${left[0]})`);
    break;
  }
  const notes = missing.length > MAX_MISSING_NOTES ? [...missing.slice(0, MAX_MISSING_NOTES - 1), `and ${missing.length - MAX_MISSING_NOTES + 1} more`] : missing;
  const recording: RecordingInput = {
    version: RECORDING_VERSION,
    target: options.target,
    recordedAt: new Date(deps.now()).toISOString(),
    complete: missing.length === 0,
    ...(missing.length > 0 ? { missing: notes } : {}),
    entries,
  };
  return { recording, missing, notes: client.notes, websites, types: types.map((t) => t.name), ...(refused !== undefined ? { refused } : {}) };
}
