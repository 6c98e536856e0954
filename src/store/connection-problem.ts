/**
 * What a failed connection to a Redis store means, in one line: a store that does not answer,
 * or one that answers but refuses this process (credentials, TLS, not the topology the URL
 * says), with what to change. Read from the client's error only; never a password.
 */
import type { StoreTarget } from './store-target.js';

/** A connection failure, worded for a person. */
export interface ConnectionProblem {
  /**
   * `unreachable`: nothing answered (start it, or fix the address); `refused`: something
   * answered and refused this process, `fix` says what to change.
   */
  readonly kind: 'unreachable' | 'refused';
  /** One line: what the client saw (`connect ECONNREFUSED`, `WRONGPASS …`). */
  readonly reason: string;
  /** For `refused`: what is wrong and how to fix it, e.g. `refused the user name or password: fix them in the store URL`. */
  readonly fix: string | null;
}

/** Certificate errors of node:tls: the server's certificate is not trusted by this process. */
const UNTRUSTED_CERTIFICATE =
  /^(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID|CERT_UNTRUSTED|CERT_SIGNATURE_FAILURE)$/;

/** The client's error as one line: `connect ECONNREFUSED`, `Command timed out`, a Redis reply. */
export function describeClientError(error: unknown): string {
  const e = error as { code?: unknown; syscall?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && typeof e.syscall === 'string') return `${e.syscall} ${e.code}`;
  if (typeof e?.code === 'string' && e.code !== 'ERR') return e.code;
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return message.split('\n')[0]!.slice(0, 200);
}

/**
 * Words a failure of the connection to `target` seen before it was ever ready. `error` is the
 * client's last error (null when the connection only closed, or nothing answered in time).
 */
export function describeConnectionProblem(error: unknown, target: StoreTarget, waitedMs: number): ConnectionProblem {
  const e = (error ?? {}) as { code?: unknown; message?: unknown; lastNodeError?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message.split('\n')[0]! : '';
  const reason = error === null || error === undefined ? `no answer within ${waitedMs} ms` : describeClientError(error);
  const refused = (fix: string, why = reason): ConnectionProblem => ({ kind: 'refused', reason: why, fix });
  const tls = target.kind === 'redis' && target.tls;

  // A cluster client says "Failed to refresh slots cache" and keeps the node's own error aside.
  const nodeError = e.lastNodeError as { message?: unknown } | undefined;
  if (target.kind === 'cluster' && /refresh slots cache/i.test(message)) {
    const node = typeof nodeError?.message === 'string' ? nodeError.message.split('\n')[0]! : '';
    if (/cluster support disabled/i.test(node)) return refused('is not a Redis Cluster: use redis://HOST:PORT for a single Redis', node);
    if (/^(WRONGPASS|NOAUTH)/.test(node)) return describeConnectionProblem({ message: node }, target, waitedMs);
    return { kind: 'unreachable', reason: `no node of the cluster answered${node !== '' ? `: ${node}` : ''}`, fix: null };
  }
  // A Sentinel client says "All sentinels are unreachable … Last error: …".
  if (target.kind === 'sentinel' && /All sentinels are unreachable/i.test(message)) {
    const last = /Last error: (.*)$/.exec(message)?.[1]?.trim() ?? '';
    if (/unknown command 'sentinel'/i.test(last)) return refused('lists a Redis that is not a Sentinel: list the Sentinels (redis-server --sentinel), not the master', last);
    if (/^(WRONGPASS|NOAUTH)/.test(last)) return refused('refused the Sentinels\' user name or password: fix sentinelUsername / sentinelPassword', last);
    return { kind: 'unreachable', reason: `no Sentinel answered for master ${target.name}${last !== '' ? `: ${last}` : ''}`, fix: null };
  }
  if (/^WRONGPASS/.test(message)) return refused('refused the user name or password: fix them in the store URL (redis://USER:PASSWORD@HOST:PORT)');
  if (/^NOAUTH/.test(message)) return refused('needs a password: give it in the store URL (redis://:PASSWORD@HOST:PORT, or redis://USER:PASSWORD@… for an ACL user)');
  if (/^NOPERM/.test(message)) return refused('does not let this user run what the simulator needs: allow its keys ({PREFIX}:*) and commands (+@all, or at least scripting, streams, sorted sets, hashes, strings)');
  if (UNTRUSTED_CERTIFICATE.test(code)) {
    return refused(`presented a TLS certificate this process does not trust (${code}): give the CA that signed it with --store-ca FILE (the tls option of createRedisStore)`, message || code);
  }
  if (tls && (/^ERR_SSL_|^EPROTO$/.test(code) || /wrong version number|handshake/i.test(message))) {
    return refused('did not answer the TLS handshake: if that port serves plain Redis, use redis://');
  }
  if (tls && (code === 'ETIMEDOUT' || error === null || error === undefined)) {
    return refused(`completed no TLS handshake within ${waitedMs} ms: a port serving plain Redis never does; use redis:// there`);
  }
  if (!tls && target.kind === 'redis' && (code === 'ECONNRESET' || code === 'EPIPE')) {
    return refused('closed the connection before answering, as a TLS port does to plain Redis: if it serves TLS, use rediss://');
  }
  if (target.kind === 'redis' && /^(MOVED|ASK|CLUSTERDOWN)\b/.test(message)) {
    return refused('is a Redis Cluster node: use redis-cluster://HOST:PORT[,HOST:PORT…]');
  }
  return { kind: 'unreachable', reason, fix: null };
}
