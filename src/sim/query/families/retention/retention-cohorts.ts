import { organizationOwner } from '../../../ingest/event-store.js';
import { DAY_MS } from '../../../model/world.js';
import { round2 } from '../../readers/aggregate.js';
import { localDate, localDayStart } from '../../engine/dates.js';
import type { Row, RunContext } from '../../engine/definition.js';
import { NO_FILTERS, sampleProfileIdOf, scanIdentifiedSessionsSteps } from '../../readers/session-identity.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import { scanOwnerSteps } from '../../readers/tracked-events.js';

/**
 * identified_profile_retention: each identified profile activates at its earliest activation
 * event inside the cohort window; it is eligible once activation + horizon is observed, and
 * retained when a return event follows within (activation, activation + horizon]. Events are the
 * session samples' custom events of identified visitors (each sample profile stands for the
 * batch weight of profiles) and tracked events (POST /track) that carry a profile id.
 */

const SELECTORS = ['activation_event', 'return_event', 'horizon_days', 'observation_end', 'namespace'] as const;
const REQUIRED = ['activation_event', 'return_event', 'horizon_days', 'observation_end'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** More than any day is long (DST days are 23–25 h): from a local midnight it lands in the next day. */
const NEXT_DAY_MS = 26 * 3_600_000;

interface Selectors {
  readonly activation: string;
  readonly returning: string;
  readonly horizonDays: number;
  readonly observationEnd: string;
  readonly namespace: string | null;
}

function readSelectors(ctx: RunContext): Selectors {
  const values = new Map<string, string>();
  for (const test of ctx.filters.tests) {
    const known = (SELECTORS as readonly string[]).includes(test.field);
    if (!known || test.op !== 'eq' || values.has(test.field) || test.values.length !== 1) {
      throw new Error('Invalid retention selectors: supply each selector once with scalar eq.');
    }
    values.set(test.field, test.values[0] as string);
  }
  const missing = REQUIRED.filter((f) => !values.has(f));
  if (missing.length > 0) throw new Error(`Missing required filters: ${missing.map((f) => `'${f}'`).join(', ')}.`);
  const horizonDays = Number(values.get('horizon_days'));
  const observationEnd = values.get('observation_end') as string;
  const activation = values.get('activation_event') as string;
  const returning = values.get('return_event') as string;
  if (activation === '' || returning === '' || (horizonDays !== 7 && horizonDays !== 30) || !DATE.test(observationEnd)) {
    throw new Error(
      'Invalid retention selectors: activation_event and return_event must be nonempty strings, horizon_days must be 7 or 30, and observation_end must be YYYY-MM-DD; namespace is optional.',
    );
  }
  return { activation, returning, horizonDays, observationEnd, namespace: values.get('namespace') ?? null };
}

/** Start of the local day after the one containing `ms`. */
function nextLocalDay(ms: number, tz: string): number {
  return localDayStart(localDayStart(ms, tz) + NEXT_DAY_MS, tz);
}

interface Profile {
  weight: number;
  activationMs: number;
  readonly returns: number[];
}

/**
 * The overall row, then one row per activation day, as identified_profile_retention answers; in
 * pieces, yielding the session samples read ({@link PassSteps}).
 */
export function* retentionRows(ctx: RunContext): PassSteps<Row[]> {
  const s = readSelectors(ctx);
  const tz = ctx.timezone;
  const cohortFrom = localDate(ctx.fromMs, tz);
  const cohortTo = localDate(ctx.requestedToMs, tz);
  const cohortStart = localDayStart(ctx.fromMs, tz);
  const cohortEnd = nextLocalDay(ctx.requestedToMs, tz);
  const days = Math.round((cohortEnd - cohortStart) / DAY_MS);
  if (days < 1 || days > 90 || s.observationEnd < cohortTo) {
    throw new Error('Invalid retention dates: from/to must be YYYY-MM-DD spanning 1–90 inclusive cohort days, and observation_end must be on or after to.');
  }
  const observationEnd = nextLocalDay(localDayStart(Date.parse(`${s.observationEnd}T12:00:00Z`), tz), tz);
  const observedBefore = Math.min(observationEnd, ctx.now);
  const horizonMs = s.horizonDays * DAY_MS;
  const scanTo = Math.min(observedBefore, cohortEnd + horizonMs) - 1;

  const profiles = new Map<string, Profile>();
  const activationEvents = new Map<string, { identified: number; unidentified: number }>();
  const record = (profileId: string, name: string, timeMs: number, weight: number): void => {
    const inWindow = timeMs >= cohortStart && timeMs < cohortEnd;
    if (name === s.activation && inWindow) {
      const day = localDate(timeMs, tz);
      const counts = activationEvents.get(day) ?? { identified: 0, unidentified: 0 };
      activationEvents.set(day, counts);
      if (profileId === '') counts.unidentified += weight;
      else counts.identified += weight;
    }
    if (profileId === '') return;
    let profile = profiles.get(profileId);
    if (!profile) {
      profile = { weight, activationMs: Number.POSITIVE_INFINITY, returns: [] };
      profiles.set(profileId, profile);
    }
    if (name === s.activation && inWindow) profile.activationMs = Math.min(profile.activationMs, timeMs);
    if (name === s.returning) profile.returns.push(timeMs);
  };

  if (s.namespace === null) {
    const names = ctx.dictionaries.values.event_name;
    yield* scanIdentifiedSessionsSteps(
      { ...ctx, filters: NO_FILTERS },
      (batch, i, _matched, _visitor, weight) => {
        const from = batch.eventOffsets[i] as number;
        const to = batch.eventOffsets[i + 1] as number;
        if (from === to) return;
        const profileId = sampleProfileIdOf(ctx, batch, i);
        for (let e = from; e < to; e++) record(profileId, names[batch.eventNames[e] as number] ?? '', batch.eventTimeMs[e] as number, weight);
      },
      cohortStart,
      scanTo,
    );
  }
  if (ctx.scope.kind === 'websites') {
    const owners = ctx.scope.websites.map((w) => w.id);
    if (ctx.scope.organizationId !== undefined) owners.push(organizationOwner(ctx.scope.organizationId));
    for (const owner of owners) {
      yield* scanOwnerSteps(ctx, owner, cohortStart, scanTo, (event) => {
        if (s.namespace !== null && event.namespace !== s.namespace) return;
        record(event.profileId ?? '', event.name, event.timestamp, 1);
      });
    }
  }

  const cohorts = new Map<string | null, { activated: number; eligible: number; retained: number; identified: number; unidentified: number }>();
  const cohortOf = (day: string | null) => {
    let c = cohorts.get(day);
    if (!c) {
      c = { activated: 0, eligible: 0, retained: 0, identified: 0, unidentified: 0 };
      cohorts.set(day, c);
    }
    return c;
  };
  cohortOf(null);
  for (const profile of profiles.values()) {
    const act = profile.activationMs;
    if (!Number.isFinite(act)) continue;
    const eligible = act + horizonMs < observedBefore;
    const retained = eligible && profile.returns.some((t) => t > act && t <= act + horizonMs);
    for (const c of [cohortOf(null), cohortOf(localDate(act, tz))]) {
      c.activated += profile.weight;
      if (eligible) c.eligible += profile.weight;
      if (retained) c.retained += profile.weight;
    }
  }
  for (const [day, counts] of activationEvents) {
    for (const c of [cohortOf(null), cohortOf(day)]) {
      c.identified += counts.identified;
      c.unidentified += counts.unidentified;
    }
  }
  const echo = {
    cohort_from: cohortFrom,
    cohort_to: cohortTo,
    cohort_start: new Date(cohortStart).toISOString(),
    cohort_end: new Date(cohortEnd).toISOString(),
    observation_end: s.observationEnd,
    observed_before: new Date(observedBefore).toISOString(),
    timezone: tz,
    horizon_days: s.horizonDays,
    identity_basis: 'direct_profile_id',
    activation_basis: 'first_in_cohort_window',
  };
  const order = [...cohorts.keys()].sort((a, b) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : 1));
  return order.slice(0, 91).map((day): Row => {
    const c = cohorts.get(day) as NonNullable<ReturnType<typeof cohorts.get>>;
    const events = c.identified + c.unidentified;
    return {
      row_type: day === null ? 'overall' : 'cohort',
      cohort_date: day,
      activated_profiles: c.activated,
      eligible_profiles: c.eligible,
      retained_profiles: c.retained,
      not_retained_profiles: c.eligible - c.retained,
      incomplete_profiles: c.activated - c.eligible,
      retention_rate: c.eligible > 0 ? round2((100 * c.retained) / c.eligible) : null,
      activation_events: events,
      identified_activation_events: c.identified,
      unidentified_activation_events: c.unidentified,
      activation_identity_coverage: events > 0 ? round2((100 * c.identified) / events) : null,
      ...echo,
    };
  });
}
