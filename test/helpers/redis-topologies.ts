import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort, startRedis, type RedisServer } from './redis-server.js';

const run = promisify(execFile);

/** How long a topology may take to form (a cluster to agree on its slots). */
const FORM_TIMEOUT_MS = 20_000;

/** A temporary directory, removed when the test process exits. */
function temporaryDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `analytics-sim-${name}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Polls `check` until it holds, at most `ms`; throws `what` past the deadline (no sleeps as synchronization). */
async function until(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** PEM files made for one test file: a CA, a server certificate it signed for 127.0.0.1, and a CA that signed nothing here. */
export interface Certificates {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
  /** Another CA: trusting it alone, a client refuses the server's certificate. */
  readonly otherCa: string;
}

/** Makes the certificates with openssl (Debian's `openssl` package), valid a day. */
export async function makeCertificates(): Promise<Certificates> {
  const dir = temporaryDir('tls');
  const at = (name: string): string => join(dir, name);
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir, timeout: 20_000 });
  await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.crt'), '-days', '1', '-subj', '/CN=analytics-sim test CA');
  await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('other.key'), '-out', at('other.crt'), '-days', '1', '-subj', '/CN=another CA');
  await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(at('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await openssl('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.crt'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('server.crt'), '-days', '1', '-extfile', at('server.ext'));
  return { ca: at('ca.crt'), cert: at('server.crt'), key: at('server.key'), otherCa: at('other.crt') };
}

/** A master watched by two Sentinels. */
export interface SentinelPair {
  /** `sentinel://127.0.0.1:S1,127.0.0.1:S2/NAME`. */
  readonly url: string;
  readonly name: string;
  readonly master: RedisServer;
  readonly sentinels: readonly [RedisServer, RedisServer];
  /** The master's replicas (`replicas` asked for), which `SENTINEL FAILOVER` can promote. */
  readonly replicas: readonly RedisServer[];
  stop(): Promise<void>;
}

/**
 * Starts a master and two Sentinels monitoring it as `name` (quorum 1), each on a free loopback
 * port; resolves once both Sentinels name the master (and list each replica in sync with it).
 * `sentinelPassword` makes the Sentinels ask for one (`requirepass` in their config); `replicas`
 * starts that many replicas of the master first (`--replicaof`), for a failover.
 */
export async function startSentinelPair(name = 'simmaster', options: { sentinelPassword?: string; replicas?: number } = {}): Promise<SentinelPair> {
  // A replica (and a demoted master) writes the snapshot it syncs from into its directory.
  const count = options.replicas ?? 0;
  const master = await startRedis(count > 0 ? { dir: temporaryDir('master') } : {});
  const replicas: RedisServer[] = [];
  for (let i = 0; i < count; i++) {
    const replica = await startRedis({ dir: temporaryDir('replica'), args: ['--replicaof', '127.0.0.1', String(master.port)] });
    replicas.push(replica);
    const client = new Redis({ port: replica.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await until(`the replica on ${replica.port} did not sync with the master`, FORM_TIMEOUT_MS, async () => String(await client.info('replication')).includes('master_link_status:up'));
    } finally {
      client.disconnect();
    }
  }
  const dir = temporaryDir('sentinel');
  const sentinels: RedisServer[] = [];
  for (const index of [1, 2]) {
    const config = join(dir, `sentinel-${index}.conf`);
    const lines = [`sentinel monitor ${name} 127.0.0.1 ${master.port} 1`, `sentinel down-after-milliseconds ${name} 5000`, `dir ${dir}`];
    if (options.sentinelPassword !== undefined) lines.push(`requirepass ${options.sentinelPassword}`);
    writeFileSync(config, `${lines.join('\n')}\n`);
    sentinels.push(await startRedis({ sentinelConfig: config, ...(options.sentinelPassword !== undefined ? { password: options.sentinelPassword } : {}) }));
  }
  for (const sentinel of sentinels) {
    const client = new Redis({ port: sentinel.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, ...(options.sentinelPassword !== undefined ? { password: options.sentinelPassword } : {}) });
    try {
      await until(`the Sentinel on ${sentinel.port} did not name ${name}`, FORM_TIMEOUT_MS, async () => {
        const address = (await client.call('SENTINEL', 'get-master-addr-by-name', name)) as string[] | null;
        if (address?.[1] !== String(master.port)) return false;
        const known = (await client.call('SENTINEL', 'replicas', name)) as string[][];
        return known.filter((fields) => !/disconnected|s_down/.test(fields[fields.indexOf('flags') + 1] ?? '')).length >= replicas.length;
      });
    } finally {
      client.disconnect();
    }
  }
  return {
    url: `sentinel://${sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/${name}`,
    name,
    master,
    sentinels: sentinels as [RedisServer, RedisServer],
    replicas,
    async stop() {
      await Promise.allSettled([...sentinels, ...replicas, master].map((server) => server.stop()));
    },
  };
}

/** A Redis Cluster of masters without replicas. */
export interface RedisCluster {
  /** `redis-cluster://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3`. */
  readonly url: string;
  readonly nodes: readonly RedisServer[];
  stop(): Promise<void>;
}

/**
 * Starts `count` cluster-enabled redis-servers on free loopback ports (each with a free bus port
 * of its own), joins them with `redis-cli --cluster create … --cluster-replicas 0 --cluster-yes`
 * (Debian's redis-tools) and resolves once every node says `cluster_state:ok`.
 */
export async function startCluster(count = 3): Promise<RedisCluster> {
  const nodes: RedisServer[] = [];
  for (let i = 0; i < count; i++) {
    const dir = temporaryDir('cluster');
    const bus = await freePort();
    nodes.push(
      await startRedis({ dir, args: ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'), '--cluster-port', String(bus), '--cluster-node-timeout', '5000'] }),
    );
  }
  const stop = async (): Promise<void> => {
    await Promise.allSettled(nodes.map((node) => node.stop()));
  };
  try {
    await run('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], { timeout: FORM_TIMEOUT_MS });
    for (const node of nodes) {
      const client = new Redis({ port: node.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
      try {
        await until(`node ${node.port} did not reach cluster_state:ok`, FORM_TIMEOUT_MS, async () => String(await client.call('CLUSTER', 'INFO')).includes('cluster_state:ok'));
      } finally {
        client.disconnect();
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis-cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`, nodes, stop };
}
