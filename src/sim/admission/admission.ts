import type { Journal } from '../journal/journal.js';
import type { InFlightGate } from './in-flight-gate.js';
import type { AdmissionStore } from './store.js';

/** The admission machinery a simulator owns: the windows, the in-flight gate and the journal. */
export interface Admission {
  readonly store: AdmissionStore;
  readonly gate: InFlightGate;
  readonly journal: Journal;
}
