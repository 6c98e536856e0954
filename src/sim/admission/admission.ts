import type { ExchangeLog } from '../journal/exchange-log.js';
import type { Journal } from '../journal/journal.js';
import type { InFlightGate } from './in-flight-gate.js';
import type { AdmissionStore } from './store.js';

/** The admission machinery a simulator owns: the windows, the in-flight gate, the journal and the exchanges behind it. */
export interface Admission {
  readonly store: AdmissionStore;
  readonly gate: InFlightGate;
  readonly journal: Journal;
  /** The latest service exchanges of this process, for the journal's HAR. */
  readonly exchanges: ExchangeLog;
}
