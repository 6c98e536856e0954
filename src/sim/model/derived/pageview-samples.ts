/**
 * What every per-pageview derivation of a website's day holds (errors, vitals): samples grouped
 * by session sample, in time order within it, each tied to the pageview that produced it.
 */
export interface PageviewSamples {
  readonly websiteId: string;
  readonly day: number;
  /** Number of samples. */
  readonly count: number;
  /** Real occurrences each sample stands for (the session batch's weight). */
  readonly weight: number;
  /** Session sample index in the day's `SessionBatch`. */
  readonly sample: Uint32Array;
  /** Index of the pageview (into the session batch's page columns) that produced it. */
  readonly pageview: Uint32Array;
  /** Path code of that pageview. */
  readonly path: Uint16Array;
  /** When it happened, epoch ms, within its session. */
  readonly timeMs: Float64Array;
  /** Samples of session sample i are at [sessionOffsets[i], sessionOffsets[i+1]). Length sessions + 1. */
  readonly sessionOffsets: Uint32Array;
}
