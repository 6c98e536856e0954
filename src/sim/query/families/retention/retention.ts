import { readCatalogue } from '../../engine/catalogue.js';
import { defineQueryType, type QueryFamilySpec, type QueryTypeDefinition } from '../../engine/definition.js';
import { retentionRows } from './retention-cohorts.js';
import catalogue from './retention-catalogue.json' with { type: 'json' };

/**
 * The retention family: its type observes up to now and reads every day's records; its fields
 * and meta are in retention-catalogue.json.
 */
const FAMILY: QueryFamilySpec = { name: 'retention', observedAtNow: true, readsEveryDay: true, catalogue: readCatalogue('retention', catalogue) };

/** The live retention builders. */
export const retentionTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'identified_profile_retention',
    readsTrackedEvents: true,
    family: FAMILY,
    filters: ["activation_event", "return_event", "horizon_days", "observation_end", "namespace"],
    steps: retentionRows,
  }),
];
