import { defineQueryType, type QueryTypeDefinition } from '../../engine/definition.js';
import { OUTPUT_FIELDS, dateText, dateTextOrNull, datetime, num, numOrNull, text } from '../../engine/fields.js';
import { retentionRows } from './retention-cohorts.js';

/** The live retention builders. */
export const retentionTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'identified_profile_retention',
    readsTrackedEvents: true,
    family: { name: 'retention', observedAtNow: true, readsEveryDay: true },
    filters: ["activation_event", "return_event", "horizon_days", "observation_end", "namespace"],
    fields: {
      row_type: text({ description: "overall or cohort" }),
      cohort_date: dateTextOrNull({ description: "Activation calendar date; null for overall" }),
      activated_profiles: num(),
      eligible_profiles: num({ description: "Full return interval observed" }),
      retained_profiles: num({ description: "Eligible profiles with a qualifying return" }),
      not_retained_profiles: num({ description: "Eligible profiles without a qualifying return" }),
      incomplete_profiles: num({ description: "Excluded from retention denominator and failures" }),
      retention_rate: numOrNull({ unit: "%", description: "Null when eligible_profiles is zero" }),
      activation_events: num(),
      identified_activation_events: num(),
      unidentified_activation_events: num(),
      activation_identity_coverage: numOrNull({ unit: "%", description: "Event-level percentage with direct profile_id; null for no activation events" }),
      cohort_from: dateText(),
      cohort_to: dateText(),
      cohort_start: datetime({ description: "Inclusive cohort start in UTC" }),
      cohort_end: datetime({ description: "Exclusive cohort end in UTC" }),
      observation_end: dateText({ description: "Requested inclusive observation date" }),
      observed_before: datetime({ description: "Exclusive effective observation cutoff in UTC" }),
      timezone: text(),
      horizon_days: num(),
      identity_basis: text(),
      activation_basis: text(),
    },
    meta: {
      title: "Identified profile activation retention",
      category: "Profiles",
      tags: ["retention", "activation", "cohort", "identified", "coverage"],
      description: "Directly identified profile retention on exact custom events. Required scalar eq filters: activation_event, return_event, horizon_days (7 or 30), observation_end (YYYY-MM-DD); optional exact namespace scopes both events. from/to are inclusive cohort calendar dates in timezone (default UTC), at most 90 days. observation_end is an inclusive observation date >= to, capped at query time. Each owner-scoped profile activates once at its earliest matching event IN this cohort window, not first-ever. Return interval is (activation, activation + horizon * 24 hours], not day-N retention. Only fully observed profiles enter retained/not_retained and the retention rate; incomplete follow-up is separate even if a return is already observed. No anonymous joins, person, customer or subscription inference. Overall row first, followed by daily cohorts; do not sum the overall row with daily rows. Identity coverage counts raw activation events (including duplicates), not profiles or population coverage. Fixed daily grouping/order; omit groupBy/orderBy. At most 91 SQL rows; limit100 includes all. get_data separately caps returnedRows at 20 and reports rowCount/truncated. No referrer attribution.",
      default_order: "row_type DESC, cohort_date ASC",
      default_visualization: "table",
      output_fields: OUTPUT_FIELDS,
    },
    run: retentionRows,
  }),
];
