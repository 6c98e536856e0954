import type { QueryTypeDefinition } from '../../sim/query/engine/definition.js';
import { describeAnswer, type Answer, type ConformClient } from './client.js';
import { hasFieldType, jsonTypeOf, LIVE_TYPES, liveFields, PARAMETERS_PER_REQUEST, REQUIRED_FILTERS, SHAPE_LIMIT, SHAPE_PRESET, TARGET_IDS } from './expectations.js';
import type { ConformOptions } from './options.js';
import { fail, pass, skip, type CheckResult } from './report.js';
import { detailsOf } from './probe.js';

/** One parameter's outcome in a query answer. */
interface ParameterResult {
  readonly parameter?: unknown;
  readonly success?: unknown;
  readonly error?: unknown;
  readonly data?: unknown;
}

/** What the table expects of a type's rows: its live fields, in order. */
function expectedOf(type: QueryTypeDefinition): string {
  const names = liveFields(type).map(([name]) => name);
  return `success; rows of ${names.join(', ')}`;
}

/** Judges one type's rows against its live fields: exact keys in order, then each value's JSON type. */
export function judgeRows(type: QueryTypeDefinition, rows: readonly unknown[]): CheckResult {
  const check = type.name;
  const expected = expectedOf(type);
  const fields = liveFields(type);
  if (fields.length === 0) return skip('shapes', check, expected, 'the live row shape is not known (no builder body was found)');
  if (rows.length === 0) return skip('shapes', check, expected, 'success with no rows: no shape to compare');
  const names = fields.map(([name]) => name);
  for (const [i, row] of rows.entries()) {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) return fail('shapes', check, expected, `row ${i + 1} is ${jsonTypeOf(row)}, not an object`);
    const keys = Object.keys(row);
    if (keys.length !== names.length || keys.some((k, j) => k !== names[j])) {
      const missing = names.filter((n) => !keys.includes(n));
      const extra = keys.filter((k) => !names.includes(k));
      const why = [missing.length > 0 ? `missing ${missing.join(', ')}` : '', extra.length > 0 ? `extra ${extra.join(', ')}` : ''].filter(Boolean).join('; ') || 'another order';
      return fail('shapes', check, expected, `row keys ${keys.join(', ')} (${why})`, [`expected: ${names.join(', ')}`, `row ${i + 1}: ${keys.join(', ')}`]);
    }
    for (const [name, fieldType] of fields) {
      const value = (row as Record<string, unknown>)[name];
      if (!hasFieldType(value, fieldType)) {
        return fail('shapes', check, expected, `row ${i + 1}: ${name} is ${jsonTypeOf(value)}, live ${fieldType}`, [`row ${i + 1}: ${name} = ${JSON.stringify(value)}`]);
      }
    }
  }
  return pass('shapes', check, expected, `success, ${rows.length} row${rows.length === 1 ? '' : 's'} as declared`);
}

/** A parameter that failed: a difference, unless the type needs a filter the check cannot give (live fails it too). */
function failedParameter(type: QueryTypeDefinition, item: ParameterResult): CheckResult {
  const error = typeof item.error === 'string' ? item.error : 'success is not true';
  const needs = REQUIRED_FILTERS[type.name];
  if (needs !== undefined) return skip('shapes', type.name, expectedOf(type), `failed (${error}): it needs a ${needs} filter, as live; shape not checked`);
  return fail('shapes', type.name, expectedOf(type), `failed: ${error}`);
}

/** The requests of the group: the types of one target, types the live plan gate covers apart, at most 50 a request. */
function batchesOf(types: readonly QueryTypeDefinition[]): QueryTypeDefinition[][] {
  const batches: QueryTypeDefinition[][] = [];
  for (const part of [types.filter((t) => t.liveGate === undefined), types.filter((t) => t.liveGate !== undefined)]) {
    for (let i = 0; i < part.length; i += PARAMETERS_PER_REQUEST) batches.push(part.slice(i, i + PARAMETERS_PER_REQUEST));
  }
  return batches.filter((b) => b.length > 0);
}

/** Types the answer names as unknown (`parameters[i]` details of a 400), by index into `sent`. */
function unknownTypes(answer: Answer, sent: readonly QueryTypeDefinition[]): QueryTypeDefinition[] {
  if (answer.status !== 400) return [];
  return detailsOf(answer).flatMap((d) => {
    const index = /^parameters\[(\d+)\]$/.exec(String(d.field))?.[1];
    const type = index === undefined ? undefined : sent[Number(index)];
    return type && /unknown query type/i.test(String(d.message)) ? [type] : [];
  });
}

/** Sends one batch and judges each of its types; a type the target does not know is dropped and the rest sent again. */
async function runBatch(client: ConformClient, batch: readonly QueryTypeDefinition[], query: Record<string, string>): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  let pending = [...batch];
  while (pending.length > 0) {
    const answer = await client.send({
      method: 'POST',
      path: '/v1/query',
      query,
      body: { parameters: pending.map((t) => t.name), preset: SHAPE_PRESET, limit: SHAPE_LIMIT },
      credential: 'key',
    });
    const unknown = unknownTypes(answer, pending);
    if (unknown.length > 0) {
      for (const type of unknown) results.push(fail('shapes', type.name, expectedOf(type), `unknown to the target: ${describeAnswer(answer)}`));
      pending = pending.filter((t) => !unknown.includes(t));
      continue;
    }
    const data = (answer.json as { data?: unknown } | undefined)?.data;
    if (answer.status === 402) {
      for (const type of pending) results.push(skip('shapes', type.name, expectedOf(type), `refused by the plan gate: ${describeAnswer(answer)}`));
    } else if (answer.status !== 200 || !Array.isArray(data)) {
      for (const type of pending) results.push(fail('shapes', type.name, expectedOf(type), `request refused: ${describeAnswer(answer)}`));
    } else {
      const byParameter = new Map((data as ParameterResult[]).map((item) => [String(item.parameter), item]));
      for (const type of pending) {
        const item = byParameter.get(type.name);
        if (item === undefined) results.push(fail('shapes', type.name, expectedOf(type), 'no result for this parameter'));
        else if (item.success !== true) results.push(failedParameter(type, item));
        else if (!Array.isArray(item.data)) results.push(fail('shapes', type.name, expectedOf(type), 'success without a data list'));
        else results.push(judgeRows(type, item.data));
      }
    }
    pending = [];
  }
  return results;
}

/**
 * The shapes group: every live type over the last 7 days on the id its target needs (a type
 * whose id was not given is skipped, one row per target naming the flag to pass), batched and
 * paced by the client. Rows come back in the order of the live list.
 */
export async function shapeChecks(client: ConformClient, options: ConformOptions, reachable: readonly string[] = []): Promise<CheckResult[]> {
  const byName = new Map<string, CheckResult>();
  const skipped: CheckResult[] = [];
  for (const target of ['website', 'link', 'monitor'] as const) {
    const types = LIVE_TYPES.filter((t) => t.target === target && (options.types === undefined || options.types.includes(t.name)));
    const ids = TARGET_IDS[target];
    const id = options[ids.option];
    if (id === undefined) {
      const hint = target === 'website' && reachable.length > 0 ? ` (the key reaches ${reachable.slice(0, 3).join(', ')}${reachable.length > 3 ? ', …' : ''})` : '';
      if (types.length > 0) skipped.push(skip('shapes', `the ${types.length} ${target} type${types.length === 1 ? '' : 's'}`, `success; rows of each type's live fields`, `no ${ids.flag} given${hint}`));
      continue;
    }
    for (const batch of batchesOf(types)) {
      for (const result of await runBatch(client, batch, { [ids.query]: id })) byName.set(result.check, result);
    }
  }
  const judged = LIVE_TYPES.flatMap((t) => {
    const result = byName.get(t.name);
    return result ? [result] : [];
  });
  return [...judged, ...skipped];
}
