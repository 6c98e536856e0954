import type { SimRequest } from '../messages.js';

/**
 * Which web origins may call the simulated API from a browser with credentials.
 *
 * - The simulator's own origin (`http://` + the request's Host, or `https://` when
 *   `X-Forwarded-Proto: https`) is always allowed.
 * - Without a configured list, any port of `http://localhost`, `http://127.0.0.1` and
 *   `http://[::1]` is allowed: local development servers.
 * - A configured list replaces that default. Entries are origins (`https://app.example`,
 *   `http://localhost:5173`), an origin with `:*` for any port (`http://localhost:*`), or `*`
 *   for every origin. `null` (sandboxed frames, files) is never allowed.
 */
export interface OriginPolicy {
  /** The configured entries, normalized; null for the default. */
  readonly entries: readonly string[] | null;
  /** Whether a page of `origin` may read answers to `request` (and use its session cookie). */
  allows(origin: string, request: SimRequest): boolean;
}

/** The default entries: loopback pages on any port. */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

const ORIGIN = /^(https?):\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}|\*))?\/?$/;

interface Matcher {
  readonly scheme: string;
  readonly host: string;
  /** A port, '*' for any, or '' for the scheme's default. */
  readonly port: string;
}

const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };

function parse(text: string, allowWildcardPort: boolean): Matcher | null {
  const m = ORIGIN.exec(text.trim().toLowerCase());
  if (!m) return null;
  const scheme = m[1] as string;
  const host = m[2] as string;
  let port = m[3] ?? '';
  if (port === '*' && !allowWildcardPort) return null;
  if (port !== '*' && port !== '') {
    if (Number(port) > 65535) return null;
    port = String(Number(port));
    if (port === DEFAULT_PORT[scheme]) port = '';
  }
  return { scheme, host, port };
}

function serialize(m: Matcher): string {
  return `${m.scheme}://${m.host}${m.port === '' ? '' : `:${m.port}`}`;
}

/**
 * Checks and normalizes one configured entry: the entry as it will be matched, or an error
 * message for a person (`--allowed-origin` prints it).
 */
export function normalizeAllowedOrigin(entry: string): { ok: true; origin: string } | { ok: false; message: string } {
  if (entry.trim() === '*') return { ok: true, origin: '*' };
  const m = parse(entry, true);
  if (!m) {
    return {
      ok: false,
      message: `'${entry}' is not an origin: write scheme://host[:port] (http or https, no path), an origin with :* for any port, or *`,
    };
  }
  return { ok: true, origin: serialize(m) };
}

function matches(pattern: Matcher, origin: Matcher): boolean {
  return pattern.scheme === origin.scheme && pattern.host === origin.host && (pattern.port === '*' || pattern.port === origin.port);
}

/** The origin the request was addressed to, or null without a usable Host header. */
function ownOrigin(request: SimRequest): Matcher | null {
  const host = request.headers.host;
  if (host === undefined) return null;
  const proto = request.headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase() === 'https' ? 'https' : 'http';
  return parse(`${proto}://${host}`, false);
}

/** Builds the policy; throws an Error naming the first entry that is not an origin. */
export function createOriginPolicy(allowed?: readonly string[]): OriginPolicy {
  const entries = allowed === undefined ? null : allowed.map((entry) => {
    const normalized = normalizeAllowedOrigin(entry);
    if (!normalized.ok) throw new Error(`Invalid allowed origin: ${normalized.message}`);
    return normalized.origin;
  });
  const any = entries?.includes('*') ?? false;
  const matchers = (entries ?? DEFAULT_ALLOWED_ORIGINS).filter((e) => e !== '*').map((e) => parse(e, true) as Matcher);
  return {
    entries,
    allows(origin, request) {
      if (origin === 'null' || origin.length > 300) return false;
      const candidate = parse(origin, false);
      if (!candidate) return false;
      if (any) return true;
      const own = ownOrigin(request);
      if (own && matches(own, candidate)) return true;
      return matchers.some((m) => matches(m, candidate));
    },
  };
}
