// TODO(#12): transitional; removed once every family file declares its types with defineQueryType.
import type { Scope } from '../../contract/scopes.js';
import { defineQueryType, type FieldType, type QueryFamily, type QueryTarget, type QueryTypeDefinition, type Row, type RunContext, type SqlShape } from './definition.js';

interface LegacySpec {
  name: string;
  target?: QueryTarget;
  scope?: Scope;
  publicAccess?: boolean;
  commonFilters?: boolean;
  extraFilters?: readonly string[];
  customizable?: boolean;
  defaultLimit?: number;
  skipDateRange?: boolean;
  maxRangeDays?: number;
  readsTrackedEvents?: boolean;
  meta: { title: string; description: string; category: string; outputFields: readonly string[]; defaultVisualization?: string; supportsGranularity?: readonly string[] };
  sql: SqlShape;
  run(ctx: RunContext): Row[];
}

/** An old-style declaration as a definition. */
export function legacyType(spec: LegacySpec): QueryTypeDefinition {
  const fields: Record<string, FieldType> = {};
  for (const f of spec.meta.outputFields) fields[f] = 'string';
  const family: QueryFamily = spec.target === 'link' ? 'link-shortener' : spec.target === 'monitor' ? 'uptime' : 'summary';
  return defineQueryType({
    name: spec.name,
    family,
    ...(spec.target ? { target: spec.target } : {}),
    ...(spec.scope ? { scope: spec.scope } : {}),
    publicAccess: spec.publicAccess ?? true,
    filters: spec.extraFilters ?? [],
    customizable: spec.customizable ?? true,
    limit: spec.defaultLimit ?? 100,
    fields,
    meta: {
      title: spec.meta.title,
      description: spec.meta.description,
      category: spec.meta.category,
      tags: [],
      output_fields: spec.meta.outputFields.map((name) => ({ name, type: 'string' })),
      ...(spec.meta.defaultVisualization ? { default_visualization: spec.meta.defaultVisualization } : {}),
    },
    ...(spec.skipDateRange ? { skipDateRange: true } : {}),
    ...(spec.maxRangeDays !== undefined ? { maxRangeDays: spec.maxRangeDays } : {}),
    ...(spec.readsTrackedEvents ? { readsTrackedEvents: true } : {}),
    sql: spec.sql,
    run: spec.run,
  });
}

/** The old website-type defaults. */
export function defineWebsiteType(spec: LegacySpec): QueryTypeDefinition {
  return legacyType(spec);
}
