import type { PageviewSamples } from './pageview-samples.js';
import type { Derivation, DeriveInput } from '../../traffic-cache.js';
import { mix, pickWeighted, unit } from '../hash.js';
import { websiteHash } from '../identity.js';
import { pageStayMs } from './pageview-times.js';
import type { Dictionaries, SessionBatch } from '../traffic.js';
import type { ErrorKind, ErrorWordSlot } from '../error-kind.js';

export type { ErrorKind } from '../error-kind.js';

/**
 * JavaScript errors of a website's day, derived from that day's session samples: some pageviews
 * raise one or more errors, more on a few buggy pages and browsers. Every error belongs to a
 * session sample (so its session, visitor, country, browser and device are the session's) and
 * happens during the pageview that raised it.
 */

/**
 * An error kind with `{slot}` where a website's own code words go ({@link ErrorWordSlot}), and
 * the words the default world fills in.
 */
export interface ErrorKindTemplate extends ErrorKind {
  readonly words: Readonly<Partial<Record<ErrorWordSlot, string>>>;
}

/** The error kinds, as templates: {@link ErrorBatch.kind} indexes them (and every website's filled kinds). */
export const ERROR_TEMPLATES: readonly ErrorKindTemplate[] = [
  { type: 'TypeError', message: "Cannot read properties of undefined (reading '{prop}')", file: '/_next/static/chunks/pages/{page}-4c1f9a.js', lineno: 1, colno: 18342, frames: ['{Component}', 'renderWithHooks', 'mountIndeterminateComponent'], weight: 14, words: { prop: 'map', page: 'products', Component: 'ProductGrid' } },
  { type: 'TypeError', message: "Cannot read properties of null (reading 'addEventListener')", file: '/_next/static/chunks/main-8e2d71.js', lineno: 1, colno: 5121, frames: ['{fn}', 'HTMLDocument.<anonymous>'], weight: 9, words: { fn: 'initMenu' } },
  { type: 'TypeError', message: "undefined is not an object (evaluating 'e.data.{prop}')", file: '/_next/static/chunks/pages/{page}-91ab3e.js', lineno: 1, colno: 2207, frames: ['{Component}', 'commitHookEffectListMount'], weight: 6, words: { prop: 'items', page: 'cart', Component: 'CartDrawer' } },
  { type: 'TypeError', message: 'Failed to fetch', file: '/_next/static/chunks/framework-2f6c0d.js', lineno: 1, colno: 40411, frames: ['fetchJson', 'async {fn}'], weight: 12, words: { fn: 'loadRecommendations' } },
  { type: 'TypeError', message: 't.default is not a function', file: '/_next/static/chunks/742-c3e09b.js', lineno: 1, colno: 913, frames: ['Object.{fn}', 'onClick'], weight: 4, words: { fn: 'track' } },
  { type: 'ReferenceError', message: 'gtag is not defined', file: '/_next/static/chunks/pages/_app-0b77e4.js', lineno: 1, colno: 3302, frames: ['{fn}', 'Router.emit'], weight: 7, words: { fn: 'reportPageview' } },
  { type: 'ReferenceError', message: "Can't find variable: ResizeObserver", file: '/_next/static/chunks/main-8e2d71.js', lineno: 1, colno: 77210, frames: ['{fn}', 'commitHookEffectListMount'], weight: 3, words: { fn: 'useElementSize' } },
  { type: 'SyntaxError', message: "Unexpected token '<', \"<!DOCTYPE \"... is not valid JSON", file: '/_next/static/chunks/framework-2f6c0d.js', lineno: 1, colno: 40502, frames: ['JSON.parse', 'fetchJson', 'async {fn}'], weight: 6, words: { fn: 'loadCart' } },
  { type: 'SyntaxError', message: 'JSON.parse: unexpected character at line 1 column 1 of the JSON data', file: '/_next/static/chunks/pages/{page}-7d4e21.js', lineno: 1, colno: 6630, frames: ['{fn}', '{fn2}'], weight: 3, words: { page: 'checkout', fn: 'parseResponse', fn2: 'submitOrder' } },
  { type: 'NetworkError', message: 'NetworkError when attempting to fetch resource.', file: '/_next/static/chunks/framework-2f6c0d.js', lineno: 1, colno: 40411, frames: ['fetchJson', 'async {fn}'], weight: 5, words: { fn: 'refreshSession' } },
  { type: 'ChunkLoadError', message: 'Loading chunk 742 failed.', file: '/_next/static/chunks/webpack-5a90f2.js', lineno: 1, colno: 3891, frames: ['__webpack_require__.f.j', '__webpack_require__.e'], weight: 8, words: {} },
  { type: 'ChunkLoadError', message: 'Loading chunk 318 failed.', file: '/_next/static/chunks/webpack-5a90f2.js', lineno: 1, colno: 3891, frames: ['__webpack_require__.f.j', '__webpack_require__.e'], weight: 4, words: {} },
  { type: 'RangeError', message: 'Maximum call stack size exceeded', file: '/_next/static/chunks/pages/{page}-e51c08.js', lineno: 1, colno: 1204, frames: ['{fn}', '{fn}', '{fn}'], weight: 2, words: { page: 'search', fn: 'normalizeQuery' } },
  { type: 'Error', message: 'Hydration failed because the initial UI does not match what was rendered on the server.', file: '/_next/static/chunks/framework-2f6c0d.js', lineno: 1, colno: 63120, frames: ['throwOnHydrationMismatch', 'tryToClaimNextHydratableInstance'], weight: 5, words: {} },
  { type: 'Error', message: 'ResizeObserver loop completed with undelivered notifications.', file: '', lineno: 0, colno: 0, frames: [], weight: 7, words: {} },
  { type: 'Error', message: 'Script error.', file: '', lineno: 0, colno: 0, frames: [], weight: 6, words: {} },
  { type: 'AbortError', message: 'The user aborted a request.', file: '/_next/static/chunks/framework-2f6c0d.js', lineno: 1, colno: 40620, frames: ['AbortController.abort', '{Component}.onChange'], weight: 3, words: { Component: 'SearchBox' } },
  { type: 'SecurityError', message: "Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", file: '/_next/static/chunks/main-8e2d71.js', lineno: 1, colno: 980, frames: ['{fn}', '{Component}'], weight: 2, words: { fn: 'readConsent', Component: 'ConsentBanner' } },
];

/** `template` with its slots filled from `words` (a slot `words` lacks keeps the template's own word). */
export function fillErrorKind(template: ErrorKindTemplate, words: Readonly<Partial<Record<ErrorWordSlot, string>>>): ErrorKind {
  const fill = (text: string): string => text.replace(/\{(Component|fn2|fn|prop|page)\}/g, (_, slot: ErrorWordSlot) => words[slot] ?? template.words[slot] ?? slot);
  return Object.freeze({
    type: template.type,
    message: fill(template.message),
    file: fill(template.file),
    lineno: template.lineno,
    colno: template.colno,
    frames: Object.freeze(template.frames.map(fill)),
    weight: template.weight,
  });
}

/** The error kinds of the default world, indexed by {@link ErrorBatch.kind}: the templates with their own words. */
export const ERROR_KINDS: readonly ErrorKind[] = ERROR_TEMPLATES.map((t) => fillErrorKind(t, t.words));

/** The error kinds of `websiteId` in a world of `dictionaries`: its own words where the world draws them, else {@link ERROR_KINDS}. */
export function errorKindsOf(dictionaries: Dictionaries, websiteId: string): readonly ErrorKind[] {
  return dictionaries.errorKindsOf?.(websiteId) ?? ERROR_KINDS;
}

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
  /** Index into {@link ERROR_TEMPLATES} (and into a website's {@link errorKindsOf}). */
  readonly kind: Uint8Array;
}

/** Base chance that a pageview raises an error, before page and browser factors. */
const BASE_ERROR_RATE = 0.025;
const GENERIC_WEIGHTS = ERROR_TEMPLATES.map((k) => k.weight);

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
  if (unit(words, 0x61) < 0.5) return Math.floor(unit(site, path, 0x6b, Math.floor(unit(words, 0x62) * 3)) * ERROR_TEMPLATES.length);
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
