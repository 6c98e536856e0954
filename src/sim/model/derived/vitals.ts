import type { PageviewSamples } from './pageview-samples.js';
import type { Derivation, DeriveInput } from '../../traffic-cache.js';
import { logNormal, mix, unit } from '../hash.js';
import { websiteHash } from '../identity.js';
import { pageStayMs } from './pageview-times.js';

/**
 * Web-vitals samples of a website's day, derived from that day's pageview samples: most
 * pageviews report TTFB, FCP, LCP and CLS, and INP when the visitor interacted. Values are
 * log-normal around medians set by the device and the page (heavy pages are slower), with one
 * shared speed draw per pageview so TTFB ≤ FCP ≤ LCP.
 */

/**
 * The metric names, indexed by {@link VitalsBatch.metric}. The generated pageviews report the
 * first five; FPS (the tracker's frame-rate sample) comes only from `POST /vitals`.
 */
export const VITAL_METRICS = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB', 'FPS'] as const;

/** One of {@link VITAL_METRICS}. */
export type VitalMetric = (typeof VITAL_METRICS)[number];

/** Index of each metric in {@link VITAL_METRICS}. */
export const METRIC_LCP = 0;
export const METRIC_INP = 1;
export const METRIC_CLS = 2;
export const METRIC_FCP = 3;
export const METRIC_TTFB = 4;
export const METRIC_FPS = 5;

/** Most samples one generated pageview reports (TTFB, FCP, LCP, CLS, INP). */
const SAMPLES_PER_PAGEVIEW = 5;

/** The vitals samples of one website's day, grouped by session sample, in time order within it. */
export interface VitalsBatch extends PageviewSamples {
  /** Index into {@link VITAL_METRICS}. */
  readonly metric: Uint8Array;
  /** ms for LCP, INP, FCP and TTFB; unitless for CLS. */
  readonly value: Float64Array;
}

interface DeviceProfile {
  readonly ttfb: number;
  readonly fcpGap: number;
  readonly lcpGap: number;
  readonly inp: number;
  readonly cls: number;
}

/** Medians by device type; any other device type is treated as desktop. */
const DEVICE_PROFILES: Readonly<Record<string, DeviceProfile>> = {
  desktop: { ttfb: 320, fcpGap: 650, lcpGap: 700, inp: 110, cls: 0.04 },
  mobile: { ttfb: 520, fcpGap: 1050, lcpGap: 1100, inp: 210, cls: 0.07 },
  tablet: { ttfb: 430, fcpGap: 850, lcpGap: 900, inp: 160, cls: 0.05 },
};

/** Share of pageviews whose tracker reported vitals at all. */
const REPORTING_RATE = 0.88;

/** A page's weight: most pages near 1, some heavy pages up to about 1.9. */
function pageWeight(site: number, path: number): number {
  return 0.75 + 1.15 * unit(site, path, 0x71) ** 2;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function deriveVitals({ seedHash, website, day, sessions, dictionaries }: DeriveInput): VitalsBatch {
  const profiles = dictionaries.values.device_type.map((name) => DEVICE_PROFILES[name.toLowerCase()] ?? (DEVICE_PROFILES.desktop as DeviceProfile));
  const site = mix(seedHash, websiteHash(website.id), 0x7a);
  const capacity = (sessions.pageOffsets[sessions.count] as number) * SAMPLES_PER_PAGEVIEW;
  const sample = new Uint32Array(capacity);
  const pageview = new Uint32Array(capacity);
  const path = new Uint16Array(capacity);
  const metric = new Uint8Array(capacity);
  const value = new Float64Array(capacity);
  const timeMs = new Float64Array(capacity);
  const sessionOffsets = new Uint32Array(sessions.count + 1);
  let n = 0;
  const push = (i: number, p: number, code: number, m: number, v: number, t: number): void => {
    sample[n] = i;
    pageview[n] = p;
    path[n] = code;
    metric[n] = m;
    value[n] = v;
    timeMs[n] = t;
    n++;
  };
  for (let i = 0; i < sessions.count; i++) {
    sessionOffsets[i] = n;
    const device = profiles[sessions.dims.device_type[i] as number] ?? (DEVICE_PROFILES.desktop as DeviceProfile);
    const from = sessions.pageOffsets[i] as number;
    const to = sessions.pageOffsets[i + 1] as number;
    let pageStart = sessions.startMs[i] as number;
    for (let p = from; p < to; p++) {
      const code = sessions.pagePaths[p] as number;
      const stayS = sessions.pageTimeS[p] as number;
      const stayMs = pageStayMs(sessions, p);
      const w = mix(site, day, i, p - from);
      if (unit(w, 1) < REPORTING_RATE) {
        const heavy = pageWeight(site, code);
        // One speed draw per pageview (network and CPU) moves every load metric together.
        const speed = logNormal(1, 0.35, unit(w, 2), unit(w, 3));
        const ttfb = logNormal(device.ttfb * speed, 0.45, unit(w, 4), unit(w, 5));
        const fcp = ttfb + logNormal(device.fcpGap * heavy * speed, 0.4, unit(w, 6), unit(w, 7));
        const lcp = fcp + logNormal(device.lcpGap * heavy * speed, 0.5, unit(w, 8), unit(w, 9));
        const loadAt = pageStart + Math.min(stayMs, Math.round(lcp));
        push(i, p, code, METRIC_TTFB, round(ttfb, 1), pageStart + Math.min(stayMs, Math.round(ttfb)));
        push(i, p, code, METRIC_FCP, round(fcp, 1), pageStart + Math.min(stayMs, Math.round(fcp)));
        if (unit(w, 10) < 0.97) push(i, p, code, METRIC_LCP, round(lcp, 1), loadAt);
        const leaveAt = pageStart + stayMs - 1;
        if (unit(w, 11) < 0.92) {
          const cls = unit(w, 12) < 0.3 ? 0 : logNormal(device.cls * heavy, 0.9, unit(w, 13), unit(w, 14));
          push(i, p, code, METRIC_CLS, round(Math.min(cls, 2.5), 4), leaveAt);
        }
        if (stayS >= 3 && unit(w, 15) < 0.6) {
          push(i, p, code, METRIC_INP, round(logNormal(device.inp * heavy, 0.6, unit(w, 16), unit(w, 17)), 1), leaveAt);
        }
      }
      pageStart += stayMs;
    }
  }
  sessionOffsets[sessions.count] = n;
  return {
    websiteId: website.id,
    day,
    count: n,
    weight: sessions.weight,
    sample: sample.slice(0, n),
    pageview: pageview.slice(0, n),
    path: path.slice(0, n),
    metric: metric.slice(0, n),
    value: value.slice(0, n),
    timeMs: timeMs.slice(0, n),
    sessionOffsets,
  };
}

/** The web-vitals samples of a website's day: `ctx.traffic.derived(vitalsDerivation, website, day)` (about 2.6 µs a session sample). */
export const vitalsDerivation: Derivation<VitalsBatch> = { name: 'vitals', derive: deriveVitals, cost: 7 };

/** One vitals measurement of a session, as profile_sessions nests them (path is a path code). */
export interface SessionVital {
  readonly metric_name: VitalMetric;
  readonly metric_value: number;
  readonly timeMs: number;
  readonly path: number;
}

/** The vitals of session sample `index`, ordered by time (ties by metric name). */
export function vitalsOfSession(batch: VitalsBatch, index: number): SessionVital[] {
  const out: SessionVital[] = [];
  const to = batch.sessionOffsets[index + 1] as number;
  for (let k = batch.sessionOffsets[index] as number; k < to; k++) {
    out.push({
      metric_name: VITAL_METRICS[batch.metric[k] as number] as VitalMetric,
      metric_value: round(batch.value[k] as number, 3),
      timeMs: batch.timeMs[k] as number,
      path: batch.path[k] as number,
    });
  }
  return out.sort((a, b) => a.timeMs - b.timeMs || a.metric_name.localeCompare(b.metric_name));
}
