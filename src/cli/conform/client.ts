import { QUERY_LIMIT_PER_MINUTE } from './expectations.js';

/** The `fetch` the checks go through: the global one, a simulator's in process, a test double. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** What the runner is given: the network, a way to wait, and the time (for pacing). */
export interface ConformDeps {
  readonly fetch: FetchLike;
  readonly sleep: (ms: number) => Promise<void>;
  /** Epoch ms; only differences are used. */
  readonly now: () => number;
}

/** How a request presents itself: with the key under test, with none, or with a given (bad) one. */
export type Credential = 'key' | 'none' | { readonly apiKey: string };

/** One request of a check. */
export interface ClientRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly query?: Readonly<Record<string, string | undefined>>;
  /** An object is sent as JSON; `{ raw }` as is (with a JSON content type). */
  readonly body?: unknown;
  readonly credential: Credential;
}

/** What came back. `status` 0 means no answer (`failure` says why). */
export interface Answer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body parsed as JSON, undefined when it is not JSON. */
  readonly json: unknown;
  /** Whether the key under test was sent. */
  readonly keyed: boolean;
  readonly failure?: string;
}

/** How the client paces beyond the per-endpoint budget. */
export interface ClientPacing {
  /**
   * Wait, before the next request with the key, for the instant \`X-RateLimit-Reset\` names
   * once an answer said \`X-RateLimit-Remaining: 0\`, so the key's quota is never gone past
   * (the recorder's way). Off for conform, whose limits group wants to meet a 429.
   */
  readonly followQuota?: boolean;
}

/** The longest single wait after a 429 (a Retry-After beyond it is cut to it). */
const MAX_WAIT_MS = 65_000;
/** Retries of one request refused with 429. */
const MAX_RETRIES = 3;
/** Requests sent to one endpoint within a minute before the client waits: the live limit, less a margin. */
const PACE: Readonly<Record<string, number>> = { 'POST /v1/query': QUERY_LIMIT_PER_MINUTE - 10 };

/**
 * The HTTP client of the checks: sends to `target` over the injected `fetch`, paces each
 * limited endpoint under its per-minute limit, waits out a 429's `Retry-After` and retries, and
 * keeps every answer (the limits group judges them all). A network failure is an answer with
 * status 0, never a throw.
 */
export class ConformClient {
  readonly answers: Answer[] = [];
  readonly notes: string[] = [];
  private readonly sent = new Map<string, number[]>();
  /** With {@link ClientPacing.followQuota}: when the key's quota frees a request again, once it ran out. */
  private quotaFreeAt: number | null = null;

  constructor(
    private readonly target: string,
    private readonly key: string,
    private readonly deps: ConformDeps,
    private readonly pacing: ClientPacing = {},
  ) {}

  async send(request: ClientRequest): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      await this.waitForQuota(request);
      await this.pace(request);
      const answer = await this.once(request);
      this.answers.push(answer);
      this.noteQuota(answer);
      if (answer.status !== 429 || attempt >= MAX_RETRIES) return answer;
      const retryAfter = Number(answer.headers['retry-after']);
      const waitMs = Math.min(MAX_WAIT_MS, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000);
      this.notes.push(`${request.method} ${request.path} answered 429 (Retry-After: ${answer.headers['retry-after'] ?? 'none'}); waited ${Math.round(waitMs / 1000)} s and sent it again`);
      await this.deps.sleep(waitMs);
    }
  }

  /** Waits, before a request with the key, until the quota that ran out is reset. */
  private async waitForQuota(request: ClientRequest): Promise<void> {
    if (this.quotaFreeAt === null || request.credential !== 'key') return;
    const waitMs = Math.min(MAX_WAIT_MS, this.quotaFreeAt - this.deps.now());
    this.quotaFreeAt = null;
    if (waitMs <= 0) return;
    this.notes.push(`the key's quota ran out (X-RateLimit-Remaining: 0); waited ${Math.ceil(waitMs / 1000)} s for X-RateLimit-Reset`);
    await this.deps.sleep(waitMs);
  }

  /** Reads the quota headers of an answer to the key: when Remaining reaches 0, the instant Reset names. */
  private noteQuota(answer: Answer): void {
    if (!this.pacing.followQuota || !answer.keyed) return;
    const remaining = answer.headers['x-ratelimit-remaining'];
    if (remaining === undefined || !/^\d+$/.test(remaining)) return;
    this.quotaFreeAt = Number(remaining) > 0 ? null : resetInstant(answer.headers['x-ratelimit-reset'], this.deps.now());
  }

  /** Waits while the endpoint has had its budget of requests in the last minute. */
  private async pace(request: ClientRequest): Promise<void> {
    const endpoint = `${request.method} ${request.path}`;
    const budget = PACE[endpoint];
    if (budget === undefined) return;
    const times = this.sent.get(endpoint) ?? [];
    this.sent.set(endpoint, times);
    const windowStart = this.deps.now() - 60_000;
    while (times.length > 0 && (times[0] as number) <= windowStart) times.shift();
    if (times.length >= budget) {
      const waitMs = (times[0] as number) + 60_000 - this.deps.now() + 1;
      this.notes.push(`paced ${endpoint}: ${times.length} requests in the last minute; waited ${Math.ceil(waitMs / 1000)} s`);
      await this.deps.sleep(waitMs);
      times.shift();
    }
    times.push(this.deps.now());
  }

  private async once(request: ClientRequest): Promise<Answer> {
    const url = new URL(`${this.target}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.credential === 'key') headers['x-api-key'] = this.key;
    else if (request.credential !== 'none') headers['x-api-key'] = request.credential.apiKey;
    let body: string | undefined;
    if (request.body !== undefined) {
      const raw = (request.body as { raw?: unknown }).raw;
      body = typeof raw === 'string' ? raw : JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const base = { method: request.method, path: request.path, keyed: request.credential === 'key' };
    let response: Response;
    let text: string;
    try {
      response = await this.deps.fetch(url.toString(), { method: request.method, headers, ...(body !== undefined ? { body } : {}) });
      text = await response.text();
    } catch (error) {
      return { ...base, status: 0, headers: {}, text: '', json: undefined, failure: describeFailure(error) };
    }
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      answerHeaders[name.toLowerCase()] = value;
    });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { ...base, status: response.status, headers: answerHeaders, text, json };
  }
}

/**
 * The instant an \`X-RateLimit-Reset\` names, epoch ms: epoch milliseconds or seconds as sent, or
 * seconds from now for a small number; a minute from now when absent or unreadable.
 */
function resetInstant(value: string | undefined, now: number): number {
  const reset = Number(value);
  if (value === undefined || !Number.isFinite(reset) || reset < 0) return now + 60_000;
  if (reset > 1e12) return reset + 1;
  if (reset > 1e9) return reset * 1000 + 1;
  return now + reset * 1000 + 1;
}

/** "fetch failed (connect ECONNREFUSED 127.0.0.1:9)": the error and its cause, one line. */
function describeFailure(error: unknown): string {
  const err = error as Error & { cause?: { message?: string; code?: string } };
  const cause = err.cause?.code ?? err.cause?.message;
  return `${err.message ?? String(error)}${cause ? ` (${cause})` : ''}`;
}

/** `401 AUTH_REQUIRED "Authentication required"`: status, code and message of an answer, one line. */
export function describeAnswer(answer: Answer): string {
  if (answer.status === 0) return `no answer: ${answer.failure ?? 'the request failed'}`;
  const body = answer.json as { code?: unknown; error?: unknown } | undefined;
  const code = typeof body?.code === 'string' ? ` ${body.code}` : '';
  const message = typeof body?.error === 'string' ? ` "${body.error.length > 80 ? `${body.error.slice(0, 80)}…` : body.error}"` : '';
  return `${answer.status}${code}${message}`;
}
