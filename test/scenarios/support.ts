import type { SimRequest, SimResponse, Simulator } from '../../src/index.js';
import { secretOf } from '../helpers/sim.js';

/** An answer of the simulator in process, with what an adapter would act on (delay, abort). */
export interface Hit {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  delayMs: number | undefined;
  abort: boolean | undefined;
  /** Present when the request was sent with `holdSlot`. */
  release: (() => void) | undefined;
}

/** The requests the tests send, by what they reach. */
export type Target = 'websites' | 'types' | 'query' | 'compile' | 'unknown' | 'health' | 'clock' | 'scenarios';

/** A website each fixture key may query. */
const WEBSITE_OF: Record<string, string> = {
  key_acme_read: 'web_acme_www',
  key_acme_all: 'web_acme_www',
  key_acme_quota: 'web_acme_www',
  key_acme_quota_default: 'web_acme_www',
  key_globex_read: 'web_globex_www',
};

/** The request for a target, sent with `secret` (if any) as `x-api-key`; `keyId` picks the website. */
export function requestFor(target: Target, secret?: string, keyId = 'key_acme_read', extraHeaders: Record<string, string> = {}): SimRequest {
  const headers: Record<string, string> = { ...extraHeaders };
  if (secret !== undefined) headers['x-api-key'] = secret;
  const json = { ...headers, 'content-type': 'application/json' };
  const website = WEBSITE_OF[keyId] ?? 'web_acme_www';
  switch (target) {
    case 'websites':
      return { method: 'GET', path: '/v1/query/websites', query: {}, headers };
    case 'types':
      return { method: 'GET', path: '/v1/query/types', query: {}, headers };
    case 'query':
      return {
        method: 'POST',
        path: '/v1/query',
        query: { website_id: website },
        headers: json,
        body: JSON.stringify({ parameters: ['summary_metrics'], preset: 'today' }),
      };
    case 'compile':
      return {
        method: 'POST',
        path: '/v1/query/compile',
        query: {},
        headers: json,
        body: JSON.stringify({ projectId: website, type: 'top_pages', from: '2025-05-01', to: '2025-05-07' }),
      };
    case 'unknown':
      return { method: 'GET', path: '/v1/query/nothing-here', query: {}, headers };
    case 'health':
      return { method: 'GET', path: '/__sim/health', query: {}, headers };
    case 'clock':
      return { method: 'GET', path: '/__sim/clock', query: {}, headers };
    case 'scenarios':
      return { method: 'GET', path: '/__sim/scenarios', query: {}, headers };
  }
}

/** Reads a SimResponse into a Hit. */
export function toHit(res: SimResponse): Hit {
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: { ...res.headers }, body: res.body, json, delayMs: res.delayMs, abort: res.abort, release: res.release };
}

/** Sends one request in process. */
export async function hit(sim: Simulator, request: SimRequest, holdSlot = false): Promise<Hit> {
  return toHit(await sim.handle(request, holdSlot ? { holdSlot: true } : {}));
}

/** Sends `target` as fixture key `keyId`. */
export function send(sim: Simulator, target: Target, keyId = 'key_acme_read'): Promise<Hit> {
  return hit(sim, requestFor(target, secretOf(sim, keyId), keyId));
}

/** Sends `count` requests one after the other at the current instant. */
export async function burst(sim: Simulator, count: number, target: Target, keyId = 'key_acme_read'): Promise<Hit[]> {
  const out: Hit[] = [];
  for (let i = 0; i < count; i++) out.push(await send(sim, target, keyId));
  return out;
}

/** Moves the virtual clock to `at` (epoch ms), which must not be in the past. */
export function moveTo(sim: Simulator, at: number): void {
  const now = sim.clock.now();
  if (at < now) throw new Error(`cannot move the clock back from ${now} to ${at}`);
  if (at > now) sim.clock.advance(at - now);
}

/** Share of hits for which `predicate` holds. */
export function share(hits: readonly Hit[], predicate: (h: Hit) => boolean): number {
  return hits.filter(predicate).length / hits.length;
}

/** The median of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Starts a scenario through the control plane, as a client would. */
export async function startOverControlPlane(sim: Simulator, body: unknown): Promise<Hit> {
  return hit(sim, {
    method: 'POST',
    path: '/__sim/scenarios',
    query: {},
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Stops one scenario (or all) through the control plane. */
export async function stopOverControlPlane(sim: Simulator, name?: string): Promise<Hit> {
  return hit(sim, { method: 'DELETE', path: name ? `/__sim/scenarios/${name}` : '/__sim/scenarios', query: {}, headers: {} });
}

/** The SPEC 7.1 JSON headers of an error answer with request id `id` and extra headers. */
export function errorHeaders(id: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-ID': id, ...extra };
}

/** The request id an answer carries. */
export function idOf(h: Hit): string {
  const id = h.headers['X-Request-ID'];
  if (id === undefined) throw new Error(`answer ${h.status} has no X-Request-ID`);
  return id;
}

/** The exact answer of a dropped connection. */
export const DROPPED = { status: 0, headers: {}, body: '', abort: true } as const;

export const SERVICE_UNAVAILABLE_MESSAGE = 'This service is temporarily unavailable. Try again in a moment.';
