import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A redis-server started for one test file. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>/0` (`rediss://` with `tls`). */
  readonly url: string;
  readonly port: number;
  /** The process id of the running server (a new one after `restart`). */
  readonly pid: number;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>;
  /** Kills the server at once (SIGKILL), as a crash would; does not wait. */
  kill(): void;
  /** Starts the server again on the same port and data directory; resolves when it answers PING. */
  restart(): Promise<void>;
}

/** How {@link startRedis} runs the server. */
export interface RedisServerOptions {
  /** Persist every write before answering (`--appendonly yes --appendfsync always`). */
  readonly appendonly?: boolean;
  /** The data directory (default with `appendonly`: a new temporary one, deleted when the test process exits). */
  readonly dir?: string;
  /** More arguments for redis-server (config directives: `--requirepass`, `--cluster-enabled`, …). */
  readonly args?: readonly string[];
  /** The default user's password (`--requirepass`); the readiness PING authenticates with it. */
  readonly password?: string;
  /** Serve TLS only (`--port 0 --tls-port PORT`), with these PEM files; the URL is `rediss://`. */
  readonly tls?: { readonly cert: string; readonly key: string; readonly ca: string };
  /** Run as a Sentinel (`redis-server FILE --sentinel`) with this config file, which Sentinel rewrites. */
  readonly sentinelConfig?: string;
}

const BINARY = existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server';

/** How long a server may take to answer its first PING. */
const START_TIMEOUT_MS = 10_000;

/** Servers still running, killed when the test process exits. */
const running = new Set<ChildProcess>();
/** Temporary directories to remove when the test process exits. */
const temporary = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) if (child.pid !== undefined) killQuietly(child.pid, 'SIGKILL');
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  });
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** How the readiness PING reaches the server. */
interface PingOptions {
  readonly password?: string | undefined;
  /** The CA file of a TLS server. */
  readonly ca?: string | undefined;
}

/** Whether a Redis answers PING on the port (after AUTH, over TLS, as `options` say). */
export function answersPing(port: number, options: PingOptions = {}): Promise<boolean> {
  return new Promise((resolve) => {
    const socket =
      options.ca !== undefined ? connectTls({ host: '127.0.0.1', port, ca: readFileSync(options.ca), checkServerIdentity: () => undefined }) : createConnection({ host: '127.0.0.1', port });
    const ping = options.password !== undefined ? `AUTH ${options.password}\r\nPING\r\n` : 'PING\r\n';
    let reply = '';
    const finish = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once(options.ca !== undefined ? 'secureConnect' : 'connect', () => socket.write(ping));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('+PONG')) finish(true);
      else if (reply.includes('-')) finish(false);
    });
  });
}

/**
 * Kills the server if the test process dies without its exit hook (a SIGKILL, a terminated
 * worker): a shell that polls both pids and exits as soon as either is gone.
 */
function startWatchdog(serverPid: number): ChildProcess {
  const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${serverPid} 2>/dev/null; do sleep 1; done; kill -9 ${serverPid} 2>/dev/null`;
  const watchdog = spawn('sh', ['-c', script], { stdio: 'ignore', detached: true });
  watchdog.unref();
  return watchdog;
}

/**
 * Removes a temporary data directory once the test process is gone, even when its exit hook
 * does not run (a test worker thread ends without one): restarts need the directory until then.
 */
function removeWhenGone(dir: string): void {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; rm -rf '${dir}'`;
  spawn('sh', ['-c', script], { stdio: 'ignore', detached: true }).unref();
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts `redis-server` on a free port of 127.0.0.1 (no snapshots; with `appendonly`, every
 * write fsynced to an append-only file in `dir`) and resolves once it answers PING. The server
 * is killed when the test process exits, and by a watchdog if the test process is killed.
 */
export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  installExitHook();
  let dir = options.dir;
  if (dir === undefined && !options.appendonly) {
    // Without snapshots or an append-only file the server writes nothing to its directory.
    dir = tmpdir();
  } else if (dir === undefined) {
    dir = mkdtempSync(join(tmpdir(), 'analytics-sim-redis-'));
    temporary.add(dir);
    removeWhenGone(dir);
  }
  const persistence = options.appendonly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  let port = 0;
  let child: ChildProcess | undefined;
  let watchdog: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const ports = options.tls
      ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', options.tls.cert, '--tls-key-file', options.tls.key, '--tls-ca-cert-file', options.tls.ca, '--tls-auth-clients', 'no']
      : ['--port', String(port)];
    const common = [...ports, '--bind', '127.0.0.1', '--daemonize', 'no', '--loglevel', 'warning'];
    const args =
      options.sentinelConfig !== undefined
        ? [options.sentinelConfig, '--sentinel', ...common, ...(options.args ?? [])]
        : [...common, '--save', '', ...persistence, '--dir', dir, ...(options.args ?? [])];
    const started = spawn(BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-4000);
    };
    started.stdout?.on('data', keep);
    started.stderr?.on('data', keep);
    // The server must not keep the test process alive: the exit hook stops it.
    started.unref();
    for (const stream of [started.stdout, started.stderr]) (stream as Socket | null)?.unref();
    const spawnError = new Promise<Error>((resolve) => started.once('error', resolve));
    if (started.pid === undefined) throw new Error(`cannot start ${BINARY}: ${(await spawnError).message}`);
    child = started;
    running.add(started);
    started.once('exit', () => running.delete(started));
    watchdog = startWatchdog(started.pid);
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await answersPing(port, { password: options.password, ca: options.tls?.ca }))) {
      if (started.exitCode !== null || started.signalCode !== null) {
        throw new Error(`redis-server on port ${port} exited (${started.exitCode ?? started.signalCode}): ${output.trim()}`);
      }
      if (Date.now() > deadline) {
        killQuietly(started.pid, 'SIGKILL');
        throw new Error(`redis-server on port ${port} did not answer PING within ${START_TIMEOUT_MS} ms: ${output.trim()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  // Another process may take the free port before the server binds it: try a few ports.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }

  const stopWatchdog = (): void => {
    if (watchdog?.pid !== undefined) killQuietly(watchdog.pid, 'SIGKILL');
    watchdog = undefined;
  };

  return {
    url: `${options.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}/0`,
    port,
    get pid() {
      return child?.pid ?? 0;
    },
    async stop() {
      const current = child;
      if (!current || current.pid === undefined) return;
      killQuietly(current.pid, 'SIGTERM');
      const forced = setTimeout(() => killQuietly(current.pid!, 'SIGKILL'), 5000);
      await exited(current);
      clearTimeout(forced);
      stopWatchdog();
    },
    kill() {
      if (child?.pid !== undefined) killQuietly(child.pid, 'SIGKILL');
      stopWatchdog();
    },
    async restart() {
      if (child) await exited(child);
      await launch();
    },
  };
}
