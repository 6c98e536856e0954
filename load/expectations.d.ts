/** Types of load/expectations.js (a plain ES module shared with the k6 scripts). */
export declare const LIMITS: {
  readonly endpoint: {
    readonly 'query:execute': { readonly authenticated: number; readonly anonymous: number; readonly windowMs: number };
    readonly 'query:compile': { readonly authenticated: number; readonly anonymous: number; readonly windowMs: number };
  };
  readonly keyQuotaDefault: { readonly limit: number; readonly windowMs: number };
  readonly concurrency: number;
  readonly ingest: { readonly limit: number; readonly windowMs: number };
};
export declare const RULES: readonly string[];

export interface Check {
  rule: string;
  id: string;
  limit: number;
  windowMs: number;
  allowed: boolean;
  order: number;
}
export interface Entry {
  seq: number;
  at: number;
  requestId: string;
  identity: string;
  keyId: string | null;
  outcome: string;
  status: number;
  checks: readonly Check[];
  inFlight: number | null;
  inFlightCap: number | null;
}
export interface Disagreement {
  seq: number;
  requestId: string;
  rule: string;
  id: string;
  kind: 'over-admission' | 'under-admission';
}
export interface JournalSummary {
  offered: number;
  admitted: number;
  refusedByRule: Record<string, number>;
  expectedByRule: Record<string, number>;
  checked: number;
  skipped: number;
  overAdmissions: number;
  underAdmissions: number;
  accuracy: number;
  disagreements: Disagreement[];
}
export interface Stream {
  rule: string;
  id: string;
  limit: number;
  windowMs: number;
  times: readonly number[];
}

export declare function admitSlidingLog(times: readonly number[], limit: number, windowMs: number): { admitted: number; refused: number; decisions: boolean[] };
export declare function expectedForArrivals(streams: readonly Stream[]): Record<string, { offered: number; admitted: number; refused: number }>;
export declare function summarizeJournal(entries: readonly Entry[], info?: { complete?: boolean; since?: number }): JournalSummary;
export declare function arrivalStreams(entries: readonly Entry[]): Stream[];
export declare function quantile(sorted: readonly number[], q: number): number;
export declare function isExact(summary: { accuracy: number; overAdmissions: number }): boolean;
export declare function formatReport(
  plan: string,
  summary: JournalSummary,
  extra?: { p50?: number; p99?: number; rps?: number; oracleAccuracy?: number | null },
): string[];
