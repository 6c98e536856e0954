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

  constructor(
    private readonly target: string,
    private readonly key: string,
    private readonly deps: ConformDeps,
  ) {}

  async send(request: ClientRequest): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      await this.pace(request);
      const answer = await this.once(request);
      this.answers.push(answer);
      if (answer.status !== 429 || attempt >= MAX_RETRIES) return answer;
      const retryAfter = Number(answer.headers['retry-after']);
      const waitMs = Math.min(MAX_WAIT_MS, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000);
      this.notes.push(`${request.method} ${request.path} answered 429 (Retry-After: ${answer.headers['retry-after'] ?? 'none'}); waited ${Math.round(waitMs / 1000)} s and sent it again`);
      await this.deps.sleep(waitMs);
    }
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
