import type { QueryTypeDefinition } from '../../sim/query/engine/definition.js';
import { describeAnswer, type ConformClient } from './client.js';
import { GLOBAL_FILTER_COUNT, LIVE_META_SHAPE, LIVE_PUBLIC_COUNT, LIVE_TYPES, liveConfig, sameJson } from './expectations.js';
import { fail, skip, verdict, type CheckResult } from './report.js';

/** A `configs` entry as received. */
type Config = Record<string, unknown>;

/** One per-type check of the catalogue: what the live `/types` says of every type, and how one differs. */
interface ConfigCheck {
  readonly check: string;
  readonly expected: string;
  /** Why this type's entry differs from the live one, or null when it matches. */
  differs(type: QueryTypeDefinition, config: Config): string | null;
}

const show = (value: unknown): string => (value === undefined ? 'absent' : JSON.stringify(value));

/** A config key the live builder may leave out: present with its value exactly where the builder sets one. */
const presence = (key: 'customizable' | 'defaultLimit'): ConfigCheck => ({
  check: `configs.${key}`,
  expected: 'present only where the live builder sets it, with its value',
  differs: (type, config) => {
    const want = liveConfig(type)[key];
    return sameJson(config[key], want) ? null : `${type.name}: ${key} ${show(config[key])}, live ${show(want)}`;
  },
});

/** The per-type checks of `configs`, in table order. */
export const CONFIG_CHECKS: readonly ConfigCheck[] = [
  {
    check: 'configs.allowedFilters',
    expected: `the ${GLOBAL_FILTER_COUNT} global fields, then the type's own`,
    differs: (type, config) => {
      const want = liveConfig(type).allowedFilters;
      const got = Array.isArray(config.allowedFilters) ? (config.allowedFilters as unknown[]).map(String) : [];
      if (sameJson(got, want)) return null;
      const missing = want.filter((f) => !got.includes(f));
      const extra = got.filter((f) => !want.includes(f));
      const parts = [missing.length > 0 ? `missing ${missing.join(', ')}` : '', extra.length > 0 ? `extra ${extra.join(', ')}` : ''].filter(Boolean);
      return `${type.name}: ${parts.length > 0 ? parts.join('; ') : 'another order'}`;
    },
  },
  presence('customizable'),
  presence('defaultLimit'),
  {
    check: 'configs.publicAccess',
    expected: `true for the ${LIVE_PUBLIC_COUNT} types of the live public list`,
    differs: (type, config) => (config.publicAccess === type.publicAccess ? null : `${type.name}: ${show(config.publicAccess)}, live ${type.publicAccess}`),
  },
  {
    check: 'meta shape (include_meta=true)',
    expected: 'snake_case keys, output_fields objects',
    differs: (type, config) => {
      const parsed = LIVE_META_SHAPE.safeParse(config.meta);
      if (parsed.success) return null;
      const issue = parsed.error.issues[0];
      const keys = issue?.code === 'unrecognized_keys' ? ` ${issue.keys.join(', ')}` : '';
      return `${type.name}: ${issue?.path.join('.') || 'meta'} ${issue?.message ?? 'differs'}${keys}`;
    },
  },
  {
    check: 'meta content',
    expected: "the live builder's meta",
    differs: (type, config) => (sameJson(config.meta, type.meta) ? null : `${type.name}: meta differs`),
  },
];

/** "all 155 match" or "12 of 155 differ: a, b, c, …", with every difference kept for --json. */
function aggregate(check: ConfigCheck, entries: readonly (readonly [QueryTypeDefinition, Config])[]): CheckResult {
  const differences = entries.map(([type, config]) => check.differs(type, config)).filter((d): d is string => d !== null);
  const observed =
    differences.length === 0
      ? `all ${entries.length} match`
      : `${differences.length} of ${entries.length} differ: ${differences
          .slice(0, 3)
          .map((d) => d.split(':')[0])
          .join(', ')}${differences.length > 3 ? ', …' : ''}`;
  return verdict(differences.length === 0, 'catalogue', check.check, check.expected, observed, differences.length > 0 ? differences : undefined);
}

/** The catalogue group: `GET /v1/query/types?include_meta=true`, without a key (the route is public). */
export async function catalogueChecks(client: ConformClient): Promise<CheckResult[]> {
  const answer = await client.send({ method: 'GET', path: '/v1/query/types', query: { include_meta: 'true' }, credential: 'none' });
  const body = answer.json as { types?: unknown; configs?: unknown } | undefined;
  const types = Array.isArray(body?.types) ? (body.types as unknown[]).map(String) : undefined;
  const configs = body?.configs !== null && typeof body?.configs === 'object' ? (body.configs as Record<string, Config>) : undefined;
  const readable = answer.status === 200 && types !== undefined && configs !== undefined;
  const results: CheckResult[] = [
    verdict(readable, 'catalogue', 'GET /v1/query/types without a key', '200 with types and configs', readable ? `200, ${types.length} types` : describeAnswer(answer)),
  ];
  if (!readable) {
    for (const check of ['types lists the live types', 'types in the live order', ...CONFIG_CHECKS.map((c) => c.check)]) {
      results.push(skip('catalogue', check, '(see above)', 'no catalogue to read'));
    }
    return results;
  }

  const live = LIVE_TYPES.map((t) => t.name);
  const missing = live.filter((name) => !types.includes(name));
  const extra = types.filter((name) => !live.includes(name));
  const listing = [missing.length > 0 ? `${missing.length} missing (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})` : '', extra.length > 0 ? `${extra.length} not live (${extra.slice(0, 3).join(', ')}${extra.length > 3 ? ', …' : ''})` : '']
    .filter(Boolean)
    .join('; ');
  results.push(
    verdict(missing.length === 0 && extra.length === 0, 'catalogue', 'types lists the live types', `${live.length} types`, `${types.length} types${listing ? `: ${listing}` : ''}`, [
      ...missing.map((name) => `missing: ${name}`),
      ...extra.map((name) => `not live: ${name}`),
    ]),
  );
  const common = types.filter((name) => live.includes(name));
  const liveOrder = live.filter((name) => types.includes(name));
  const firstOut = common.findIndex((name, i) => name !== liveOrder[i]);
  results.push(
    verdict(
      firstOut === -1,
      'catalogue',
      'types in the live order',
      'the builders’ order (summary first)',
      firstOut === -1 ? `the ${common.length} live types in order` : `position ${firstOut + 1}: ${common[firstOut]}, live ${liveOrder[firstOut]}`,
    ),
  );

  const entries = LIVE_TYPES.flatMap((type) => {
    const config = configs[type.name];
    return config !== null && typeof config === 'object' ? [[type, config] as const] : [];
  });
  if (entries.length === 0) {
    for (const check of CONFIG_CHECKS) results.push(fail('catalogue', check.check, check.expected, 'configs holds no live type'));
    return results;
  }
  for (const check of CONFIG_CHECKS) results.push(aggregate(check, entries));
  return results;
}
