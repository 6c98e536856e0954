/**
 * Where a Redis store is: one Redis (`redis://`, `rediss://`), a master found through Sentinel
 * (`sentinel://…` or a {@link SentinelStoreConfig} object) or a Redis Cluster
 * (`redis-cluster://…`). Parsing only: no connection, no credentials in anything shown.
 */
import type { SentinelStoreConfig } from '../contract/config.js';

/** One host and port of a Sentinel or Cluster store. */
export interface StoreNode {
  readonly host: string;
  readonly port: number;
}

/** Credentials of the data nodes (never shown). */
interface Credentials {
  readonly username: string | undefined;
  readonly password: string | undefined;
}

/** A parsed store, with its credentials, for the adapter only; `location` is what may be shown. */
export type StoreTarget =
  | (Credentials & {
      readonly kind: 'redis';
      readonly host: string;
      readonly port: number;
      readonly db: number;
      readonly tls: boolean;
      readonly location: string;
    })
  | (Credentials & {
      readonly kind: 'sentinel';
      readonly sentinels: readonly StoreNode[];
      /** The master group name Sentinel watches. */
      readonly name: string;
      readonly db: number;
      readonly sentinelUsername: string | undefined;
      readonly sentinelPassword: string | undefined;
      readonly location: string;
    })
  | (Credentials & {
      readonly kind: 'cluster';
      readonly nodes: readonly StoreNode[];
      readonly location: string;
    });

/** A store that could not be used, with a one-line reason naming the accepted forms; never a password. */
export interface StoreTargetError {
  readonly error: string;
}

/** The single-Redis forms. */
export const SINGLE_STORE_FORMS = 'redis://HOST:PORT[/DB] or rediss://HOST:PORT[/DB]';

/** Every URL form a store may take. */
export const STORE_FORMS =
  'redis://HOST:PORT[/DB], rediss://HOST:PORT[/DB], sentinel://HOST:PORT[,HOST:PORT…]/MASTER[/DB] or redis-cluster://HOST:PORT[,HOST:PORT…]';

/** Ports used when a URL names none: Redis's and Sentinel's. */
const REDIS_PORT = 6379;
const SENTINEL_PORT = 26379;

/** Most hosts a Sentinel or Cluster URL may list. */
const MAX_NODES = 64;

/** The URL as it may be shown: credentials replaced by `…`. */
function shown(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//…@');
}

const decode = (text: string | undefined): string | undefined => {
  if (text === undefined || text === '') return undefined;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** A failure, worded `REASON: use FORMS` (callers strip the `: use …` tail to list forms their own way). */
const failure = (reason: string, forms: string): StoreTargetError => ({ error: `${reason}: use ${forms}` });

/** `redis://` and `rediss://`, read by the WHATWG URL parser as before. */
function parseSingle(url: string, forms: string): StoreTarget | StoreTargetError {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return failure(`the store URL ${shown(url)} is not a URL`, forms);
  }
  if (parsed.hostname === '') return failure(`the store URL ${shown(url)} names no host`, forms);
  if (parsed.search !== '' || parsed.hash !== '') return failure(`the store URL ${shown(url)} takes no query or fragment`, forms);
  const port = parsed.port === '' ? REDIS_PORT : Number(parsed.port);
  const path = parsed.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,5}$/.test(path)) return failure(`the database in ${shown(url)} must be a number (redis://HOST:PORT/0)`, forms);
  const db = path === '' ? 0 : Number(path);
  const tls = parsed.protocol === 'rediss:';
  return {
    kind: 'redis',
    // URL keeps IPv6 addresses in brackets; the socket wants them bare.
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    db,
    tls,
    location: `${parsed.protocol}//${parsed.hostname}:${port}/${db}`,
    username: decode(parsed.username),
    password: decode(parsed.password),
  };
}

/** `host`, `host:port`, `[v6]` or `[v6]:port`; null when it is none of them. */
function parseNode(text: string, defaultPort: number): StoreNode | null {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9_.-]+))(?::(\d{1,5}))?$/.exec(text);
  if (!match) return null;
  const port = match[3] === undefined ? defaultPort : Number(match[3]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1] ?? match[2]!, port };
}

const showNode = (node: StoreNode): string => `${node.host.includes(':') ? `[${node.host}]` : node.host}:${node.port}`;

/** A comma-separated host list, or why it is not one. */
function parseNodes(list: string, defaultPort: number, url: string): StoreNode[] | string {
  if (list === '') return `the store URL ${shown(url)} names no host`;
  const parts = list.split(',');
  if (parts.length > MAX_NODES) return `the store URL ${shown(url)} lists more than ${MAX_NODES} hosts`;
  const nodes: StoreNode[] = [];
  for (const part of parts) {
    const node = parseNode(part, defaultPort);
    if (!node) return `'${part}' in ${shown(url)} is not HOST:PORT`;
    nodes.push(node);
  }
  return nodes;
}

/** `sentinel://` and `redis-cluster://`: a scheme, optional credentials, a host list and a path. */
function parseMultiHost(url: string, scheme: 'sentinel' | 'redis-cluster', forms: string): StoreTarget | StoreTargetError {
  const match = /^[a-z-]+:\/\/(?:([^@/]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?(#.*)?$/.exec(url);
  if (!match) return failure(`the store URL ${shown(url)} is not a URL`, forms);
  const [, userinfo, hosts, path = '', query, fragment] = match;
  if (query !== undefined || fragment !== undefined) return failure(`the store URL ${shown(url)} takes no query or fragment`, forms);
  const colon = userinfo?.indexOf(':') ?? -1;
  const username = decode(colon < 0 ? userinfo : userinfo!.slice(0, colon));
  const password = decode(colon < 0 ? undefined : userinfo!.slice(colon + 1));
  const segments = path.split('/').slice(1);
  if (scheme === 'redis-cluster') {
    const nodes = parseNodes(hosts!, REDIS_PORT, url);
    if (typeof nodes === 'string') return failure(nodes, forms);
    if (segments.some((s) => s !== '')) return failure(`a cluster has only database 0: ${shown(url)} takes no path (redis-cluster://HOST:PORT,HOST:PORT)`, forms);
    return { kind: 'cluster', nodes, username, password, location: `redis-cluster://${nodes.map(showNode).join(',')}` };
  }
  const sentinels = parseNodes(hosts!, SENTINEL_PORT, url);
  if (typeof sentinels === 'string') return failure(sentinels, forms);
  const [name = '', dbText = '', ...rest] = segments;
  if (name === '') return failure(`the store URL ${shown(url)} names no master (sentinel://HOST:PORT/MASTER)`, forms);
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(name)) return failure(`the master name in ${shown(url)} must be letters, digits, -, _ or .`, forms);
  if (rest.length > 0 || (dbText !== '' && !/^\d{1,5}$/.test(dbText))) return failure(`the database in ${shown(url)} must be a number (sentinel://HOST:PORT/MASTER/0)`, forms);
  const db = dbText === '' ? 0 : Number(dbText);
  return {
    kind: 'sentinel',
    sentinels,
    name,
    db,
    username,
    password,
    sentinelUsername: undefined,
    sentinelPassword: undefined,
    location: `sentinel://${sentinels.map(showNode).join(',')}/${name}/${db}`,
  };
}

/** A Sentinel config object (already checked against its schema where it came from a file). */
function parseSentinelConfig(config: SentinelStoreConfig): StoreTarget | StoreTargetError {
  const sentinels: StoreNode[] = [];
  for (const entry of config.sentinels) {
    const node = parseNode(entry, SENTINEL_PORT);
    if (!node) return { error: `sentinels: '${entry}' is not HOST:PORT` };
    sentinels.push(node);
  }
  if (sentinels.length === 0) return { error: 'sentinels: list at least one HOST:PORT' };
  const db = config.db ?? 0;
  return {
    kind: 'sentinel',
    sentinels,
    name: config.name,
    db,
    username: config.username,
    password: config.password,
    sentinelUsername: config.sentinelUsername,
    sentinelPassword: config.sentinelPassword,
    location: `sentinel://${sentinels.map(showNode).join(',')}/${config.name}/${db}`,
  };
}

/**
 * Reads a store: a URL of one of the {@link STORE_FORMS} (ports 6379, and 26379 for Sentinel,
 * when not given; database 0) or a Sentinel config object. Credentials in a URL are those of
 * the data nodes (`redis://user:pass@…`, `sentinel://user:pass@…/MASTER`); the Sentinels' own
 * go in the object. Returns the target or an error value whose one line names the problem and
 * the accepted forms, never a password. `forms` words the accepted forms (default: all).
 */
export function parseStoreTarget(store: string | SentinelStoreConfig, forms: string = STORE_FORMS): StoreTarget | StoreTargetError {
  if (typeof store !== 'string') return parseSentinelConfig(store);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(store)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'redis':
    case 'rediss':
      return parseSingle(store, forms);
    case 'sentinel':
    case 'redis-cluster':
      return parseMultiHost(store, scheme, forms);
    case undefined:
      return failure(`the store URL ${shown(store)} is not a URL`, forms);
    default:
      return failure(`unsupported store ${shown(store)}`, forms);
  }
}
