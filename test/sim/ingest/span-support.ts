import type { Simulator } from '../../../src/index.js';
import { call, freshSimulator, type Answer } from '../../helpers/sim.js';
import { rowsFor, STORE, type Row } from '../query/support.js';
import { NOW } from './support.js';

export { NOW };

/** Half an hour before the clock: inside today's data, which ends at the last whole minute. */
export const EARLIER = NOW - 30 * 60_000;

/** A desktop Chrome on macOS, as a browser sends it. */
export const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36';

/** AhrefsBot: an SEO crawler, which the service blocks. */
export const BLOCKED_BOT = 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)';

/** The span routes, with their answers' `type`, their caps and one valid span each. */
export const SPAN_ROUTES = [
  { path: '/vitals', type: 'web_vitals', max: 20, span: () => vital() },
  { path: '/errors', type: 'error', max: 50, span: () => errorSpan() },
  { path: '/engagement', type: 'engagement', max: 20, span: () => engagementSpan() },
] as const;

/** A simulator under the live profile (the errors, vitals and engagement types are live). */
export function spanSimulator(): Simulator {
  return freshSimulator({ profile: 'live' });
}

export interface SpanPostOptions {
  /** The client id sent as `?client_id=` (default web_acme_store); null sends none. */
  clientId?: string | null;
  headers?: Record<string, string>;
}

/** POSTs a span body (an object or array as JSON, a string as is) the way the tracker does. */
export function postSpans(sim: Simulator, path: string, body: unknown, options: SpanPostOptions = {}): Promise<Answer> {
  const clientId = options.clientId === undefined ? 'web_acme_store' : options.clientId;
  return call(sim, 'POST', path, {
    body,
    ...(clientId === null ? {} : { query: { client_id: clientId } }),
    headers: { 'user-agent': CHROME_MAC, ...options.headers },
  });
}

/** A web vital: LCP of 1,234 ms on /checkout half an hour ago. */
export function vital(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { path: '/checkout', metricName: 'LCP', metricValue: 1234, timestamp: EARLIER, anonymousId: 'anon_span_1', sessionId: 'sess_span_1', ...fields };
}

/** An error on /checkout half an hour ago. */
export function errorSpan(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    path: '/checkout',
    message: 'Span test: checkout button exploded',
    filename: 'https://store.acme.io/static/app.js',
    lineno: 12,
    colno: 34,
    stack: 'TypeError: Span test: checkout button exploded\n    at onClick (https://store.acme.io/static/app.js:12:34)',
    errorType: 'TypeError',
    timestamp: EARLIER,
    anonymousId: 'anon_span_1',
    sessionId: 'sess_span_1',
    ...fields,
  };
}

/** An engagement span of a page left half an hour ago. */
export function engagementSpan(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    timestamp: EARLIER,
    path: '/spans/engaged',
    anonymousId: 'anon_span_1',
    sessionId: 'sess_span_1',
    pageIndex: 1,
    exitType: 'spa',
    timeOnPage: 40,
    activeTime: 30,
    timeToFirstInteraction: 1500,
    maxScrollDepth: 80,
    scrollCount: 4,
    clickCount: 3,
    keyCount: 0,
    interactionCount: 7,
    copyCount: 0,
    rageClickCount: 0,
    deadClickCount: 0,
    rageClickTarget: '',
    deadClickTarget: '',
    formFieldCount: 0,
    formSubmitCount: 0,
    lastFormField: '',
    errorCount: 0,
    ...fields,
  };
}

/** Today (the clock's day), the range the tests post into. */
export const TODAY = { startDate: '2025-06-02', endDate: '2025-06-02' };

/** Rows of one query type for web_acme_store today. */
export function todayRows(sim: Simulator, type: string, body: Record<string, unknown> = {}): Promise<Row[]> {
  return rowsFor(sim, type, { ...TODAY, limit: 10_000, ...body }, STORE);
}
