import type { PageviewSamples } from './pageview-samples.js';
import type { Derivation, DeriveInput } from '../../traffic-cache.js';
import { hashString, mix, pickWeighted, unit } from '../hash.js';
import { websiteHash } from '../identity.js';
import { pageStayMs } from './pageview-times.js';
import type { SessionBatch } from '../traffic.js';

/**
 * JavaScript errors of a website's day, derived from that day's session samples: some pageviews
 * raise one or more errors, more on a few buggy pages and browsers. Every error belongs to a
 * session sample (so its session, visitor, country, browser and device are the session's) and
 * happens during the pageview that raised it.
 */

/** One kind of error the simulated sites raise: the same kind always has the same text and place. */
export interface ErrorKind {
  /** JS error class (`error_type`); may be empty like the tracker's for non-Error throws. */
  readonly type: string;
  readonly message: string;
  /** Script path on the site's origin; '' when the browser hides it (cross-origin "Script error."). */
  readonly file: string;
  readonly lineno: number;
  readonly colno: number;
  /** Function names of the stack, innermost first; empty when the browser gave no stack. */
  readonly frames: readonly string[];
  /** Relative frequency among generic errors. */
  readonly weight: number;
}

/** The error kinds, indexed by {@link ErrorBatch.kind}. */
export const ERROR_KINDS: readonly ErrorKind[] = [
  { type: 'TypeError', message: "Cannot read properties of undefined (reading 'map')", file: '/_next/static/chunks/pages/products-4c1f9a.js', lineno: 1, colno: 18342, frames: ['ProductGrid', 'renderWithHooks', 'mountIndeterminateComponent'], weight: 14 },
  { type: 'TypeError', message: "Cannot read properties of null (reading 'addEventListener')", file: '/_next/static/chunks/main-8e2d71.js', lineno: 1, colno: 5121, frames: ['initMenu', 'HTMLDocument.<anonymous>'], weight: 9 },
  { type: 'TypeError', message: "undefined is not an object (evaluating 'e.data.items')", file: '/_next/static/chunks/pages/cart-91ab3e.js', lineno: 1, colno: 2207, frames: ['CartDrawer', 'commitHookEffectListMount'], weight: 6 },
  { type: 'TypeError', message: 'Failed to fetch', file: '/_next/static/chunks/framework-2f6c0d.js', lineno: 1, colno: 40411, frames: ['fetchJson', 'async loadRecommendations'], weight: 12 },
  { type: 'TypeError', message: 't.default is not a function', file: '/_next/static/chunks/742-c3e09b.js', lineno: 1, colno: 913, frames: ['Object.track', 'onClick'], weight: 4 },
  { type: 'ReferenceError', message: 'gtag is not defined', file: '/_next/static/chunks/pages/_app-0b77e4.js', lineno: 1, colno: 3302, frames: ['reportPageview', 'Router.emit'], weight: 7 },
  { type: 'ReferenceError', message: "Can't find variable: ResizeObserver", file: '/_next/static/chunks/main-8e2d71.js', lineno: 1, colno: 77210, frames: ['useElementSize', 'commitHookEffectListMount'], weight: 3 },
  { type: 'SyntaxError', message: "Unexpected token '<', \"<!DOCTYPE \"... is not valid JSON", file: '/_next/static/chunks/framework-2f6c0d.js', lineno: 1, colno: 40502, frames: ['JSON.parse', 'fetchJson', 'async loadCart'], weight: 6 },
  { type: 'SyntaxError', message: 'JSON.parse: unexpected character at line 1 column 1 of the JSON data', file: '/_next/static/chunks/pages/checkout-7d4e21.js', lineno: 1, colno: 6630, frames: ['parseResponse', 'submitOrder'], weight: 3 },
  { type: 'NetworkError', message: 'NetworkError when attempting to fetch resource.', file: '/_next/static/chunks/framework-2f6c0d.js', lineno: 1, colno: 40411, frames: ['fetchJson', 'async refreshSession'], weight: 5 },
  { type: 'ChunkLoadError', message: 'Loading chunk 742 failed.', file: '/_next/static/chunks/webpack-5a90f2.js', lineno: 1, colno: 3891, frames: ['__webpack_require__.f.j', '__webpack_require__.e'], weight: 8 },
  { type: 'ChunkLoadError', message: 'Loading chunk 318 failed.', file: '/_next/static/chunks/webpack-5a90f2.js', lineno: 1, colno: 3891, frames: ['__webpack_require__.f.j', '__webpack_require__.e'], weight: 4 },
  { type: 'RangeError', message: 'Maximum call stack size exceeded', file: '/_next/static/chunks/pages/search-e51c08.js', lineno: 1, colno: 1204, frames: ['normalizeQuery', 'normalizeQuery', 'normalizeQuery'], weight: 2 },
  { type: 'Error', message: 'Hydration failed because the initial UI does not match what was rendered on the server.', file: '/_next/static/chunks/framework-2f6c0d.js', lineno: 1, colno: 63120, frames: ['throwOnHydrationMismatch', 'tryToClaimNextHydratableInstance'], weight: 5 },
  { type: 'Error', message: 'ResizeObserver loop completed with undelivered notifications.', file: '', lineno: 0, colno: 0, frames: [], weight: 7 },
  { type: 'Error', message: 'Script error.', file: '', lineno: 0, colno: 0, frames: [], weight: 6 },
  { type: 'AbortError', message: 'The user aborted a request.', file: '/_next/static/chunks/framework-2f6c0d.js', lineno: 1, colno: 40620, frames: ['AbortController.abort', 'SearchBox.onChange'], weight: 3 },
  { type: 'SecurityError', message: "Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", file: '/_next/static/chunks/main-8e2d71.js', lineno: 1, colno: 980, frames: ['readConsent', 'ConsentBanner'], weight: 2 },
];

/** Messages of {@link ERROR_KINDS}, by kind index. */
export const ERROR_MESSAGES: readonly string[] = ERROR_KINDS.map((k) => k.message);

/** Stable fingerprints of {@link ERROR_KINDS} (16 hex digits of type, message and place), by kind index. */
export const ERROR_FINGERPRINTS: readonly string[] = ERROR_KINDS.map((k) => {
  const key = `${k.type}\n${k.message}\n${k.file}:${k.lineno}:${k.colno}`;
  const a = hashString(key);
  const b = mix(a, hashString(k.message));
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
});

/** The script URL of an error of `kind` on a site at `domain`; '' when the browser hid it. */
export function errorFilename(kind: ErrorKind, domain: string): string {
  return kind.file === '' ? '' : `https://${domain}${kind.file}`;
}

/** The stack text of an error of `kind` on a site at `domain` ('' when the browser gave none). */
export function errorStack(kind: ErrorKind, domain: string): string {
  if (kind.frames.length === 0) return '';
  const url = errorFilename(kind, domain);
  const lines = kind.frames.map((fn, i) => `    at ${fn} (${url}:${kind.lineno}:${kind.colno + i * 317})`);
  return [`${kind.type || 'Error'}: ${kind.message}`, ...lines].join('\n');
}

/** The errors of one website's day. Errors are grouped by session sample, in time order within it. */
export interface ErrorBatch extends PageviewSamples {
  /** Index into {@link ERROR_KINDS}. */
  readonly kind: Uint8Array;
}

/** Base chance that a pageview raises an error, before page and browser factors. */
const BASE_ERROR_RATE = 0.025;
const GENERIC_WEIGHTS = ERROR_KINDS.map((k) => k.weight);

/** A page's error proneness: most pages near 1, about one in six is a buggy page. */
function pageFactor(site: number, path: number): number {
  const u = unit(site, path, 0xe1);
  return u < 0.17 ? 2.5 + 3 * unit(site, path, 0xe2) : 0.3 + 0.9 * unit(site, path, 0xe3);
}

/** A browser's error proneness: some browsers fail more on the site's code. */
function browserFactor(site: number, browser: number): number {
  return 0.6 + 1.4 * unit(site, browser, 0xb1) ** 2;
}

/** The kind of the `n`th error of a pageview: half of a page's errors are its own few bugs. */
function pickKind(site: number, path: number, words: number): number {
  if (unit(words, 0x61) < 0.5) return Math.floor(unit(site, path, 0x6b, Math.floor(unit(words, 0x62) * 3)) * ERROR_KINDS.length);
  return pickWeighted(GENERIC_WEIGHTS, unit(words, 0x63));
}

function deriveErrors({ seedHash, website, day, sessions }: DeriveInput): ErrorBatch {
  const site = mix(seedHash, websiteHash(website.id));
  const sample: number[] = [];
  const pageview: number[] = [];
  const path: number[] = [];
  const kind: number[] = [];
  const timeMs: number[] = [];
  const sessionOffsets = new Uint32Array(sessions.count + 1);
  for (let i = 0; i < sessions.count; i++) {
    sessionOffsets[i] = sample.length;
    const browser = browserFactor(site, sessions.dims.browser_name[i] as number);
    const from = sessions.pageOffsets[i] as number;
    const to = sessions.pageOffsets[i + 1] as number;
    let pageStart = sessions.startMs[i] as number;
    for (let p = from; p < to; p++) {
      const code = sessions.pagePaths[p] as number;
      const stayMs = pageStayMs(sessions, p);
      const words = mix(site, day, i, p - from);
      const chance = BASE_ERROR_RATE * pageFactor(site, code) * browser;
      if (unit(words, 0x01) < chance) {
        const n = 1 + (unit(words, 0x02) < 0.25 ? 1 : 0) + (unit(words, 0x03) < 0.08 ? 1 : 0);
        const offsets: number[] = [];
        for (let e = 0; e < n; e++) offsets.push(Math.floor(unit(words, 0x10 + e) * stayMs));
        offsets.sort((a, b) => a - b);
        for (let e = 0; e < n; e++) {
          sample.push(i);
          pageview.push(p);
          path.push(code);
          kind.push(pickKind(site, code, mix(words, 0x20 + e)));
          timeMs.push(pageStart + (offsets[e] as number));
        }
      }
      pageStart += stayMs;
    }
  }
  sessionOffsets[sessions.count] = sample.length;
  return {
    websiteId: website.id,
    day,
    count: sample.length,
    weight: sessions.weight,
    sample: Uint32Array.from(sample),
    pageview: Uint32Array.from(pageview),
    path: Uint16Array.from(path),
    kind: Uint8Array.from(kind),
    timeMs: Float64Array.from(timeMs),
    sessionOffsets,
  };
}

/** The JS errors of a website's day: `ctx.traffic.derived(errorDerivation, website, day)`. */
export const errorDerivation: Derivation<ErrorBatch> = { name: 'errors', derive: deriveErrors };

/** No generated error for any session of a batch (the sessions built from ingested page views). */
export function noErrors(sessions: Pick<SessionBatch, 'websiteId' | 'day' | 'count'>): ErrorBatch {
  return {
    websiteId: sessions.websiteId,
    day: sessions.day,
    count: 0,
    weight: 1,
    sample: new Uint32Array(0),
    pageview: new Uint32Array(0),
    path: new Uint16Array(0),
    kind: new Uint8Array(0),
    timeMs: new Float64Array(0),
    sessionOffsets: new Uint32Array(sessions.count + 1),
  };
}

/** The error samples of session sample `index`: indexes [from, to) of the batch's columns. */
export function errorsOfSession(batch: ErrorBatch, index: number): { from: number; to: number } {
  return { from: batch.sessionOffsets[index] as number, to: batch.sessionOffsets[index + 1] as number };
}

/** How many error samples session sample `index` has (multiply by the weight for real errors). */
export function errorCountOfSession(batch: ErrorBatch, index: number): number {
  return (batch.sessionOffsets[index + 1] as number) - (batch.sessionOffsets[index] as number);
}
