/**
 * The control plane's answers the inspector reads, as the contract declares them: types only,
 * nothing of the core or of zod reaches the bundle.
 */
import type { z } from 'zod';
import type { clockSnapshotSchema, healthReportSchema, journalListingSchema, resetResponseSchema } from '../contract/control.js';
import type { ErrorBody } from '../contract/errors.js';
import type { Scenario } from '../contract/scenario.js';
import type { ActiveScenario } from '../sim/faults/scenario-runner.js';

export type { KeyLimits, LimitsReport } from '../contract/limits.js';
export type { ErrorBody };

/** `GET /__sim/health`. */
export type HealthReport = z.infer<typeof healthReportSchema>;

/** `GET /__sim/clock`, `POST /__sim/clock`. */
export type ClockSnapshot = z.infer<typeof clockSnapshotSchema>;

/** `GET /__sim/journal`. */
export type JournalListing = z.infer<typeof journalListingSchema>;
export type JournalInfo = JournalListing['info'];
export type JournalEntry = JournalListing['entries'][number];

/** `GET /__sim/scenarios`: the built-ins, and the running ones with the state of each step. */
export interface ScenarioListing {
  readonly available: readonly Scenario[];
  readonly active: readonly ActiveScenario[];
}
export type RunningScenario = ActiveScenario;
export type RunningStep = ActiveScenario['steps'][number];

/** `POST /__sim/reset`. */
export type ResetAnswer = z.infer<typeof resetResponseSchema>;
