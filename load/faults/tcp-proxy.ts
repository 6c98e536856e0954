/**
 * A TCP proxy on a free loopback port in front of one upstream port (a Redis), with two
 * switches the fault table turns: an added delay on every chunk in both directions, and a cut
 * that holds every byte (in flight and new) until it is restored, as a short network partition
 * does (TCP delivers what it retransmits once the path is back). Connections opened during a
 * cut are accepted and reach the upstream only once the cut ends.
 */
import { createConnection, createServer, type Socket } from 'node:net';

/** The proxy and its switches. */
export interface TcpProxy {
  /** The loopback port clients connect to. */
  readonly port: number;
  /** Adds `ms` to every chunk from now on (0: none); chunks keep their order. */
  setDelay(ms: number): void;
  /** Holds every byte in both directions until {@link TcpProxy.restore}. */
  cut(): void;
  /** Ends a cut: what was held goes through, in order. */
  restore(): void;
  /** Closes the proxy and every connection through it. */
  close(): Promise<void>;
}

/** One direction of one connection: chunks delivered in order, each no earlier than its due time. */
interface Lane {
  readonly to: Socket;
  readonly queue: { chunk: Buffer; due: number }[];
  timer: NodeJS.Timeout | null;
}

/** Starts a proxy on 127.0.0.1 (a free port) to `127.0.0.1:upstreamPort`. */
export async function createTcpProxy(upstreamPort: number): Promise<TcpProxy> {
  let delayMs = 0;
  let held = false;
  const lanes = new Set<Lane>();
  const sockets = new Set<Socket>();

  const pump = (lane: Lane): void => {
    if (lane.timer !== null) return;
    while (!held && lane.queue.length > 0) {
      const next = lane.queue[0]!;
      const wait = next.due - Date.now();
      if (wait > 0) {
        lane.timer = setTimeout(() => {
          lane.timer = null;
          pump(lane);
        }, wait);
        return;
      }
      lane.queue.shift();
      if (!lane.to.destroyed) lane.to.write(next.chunk);
    }
  };

  const connect = (from: Socket, to: Socket): void => {
    const lane: Lane = { to, queue: [], timer: null };
    lanes.add(lane);
    from.on('data', (chunk: Buffer) => {
      const last = lane.queue.at(-1)?.due ?? 0;
      lane.queue.push({ chunk, due: Math.max(Date.now() + delayMs, last) });
      pump(lane);
    });
    const drop = (): void => {
      if (lane.timer !== null) clearTimeout(lane.timer);
      lanes.delete(lane);
      to.destroy();
    };
    from.once('close', drop);
    from.once('error', drop);
  };

  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: upstreamPort });
    sockets.add(client);
    sockets.add(upstream);
    client.once('close', () => sockets.delete(client));
    upstream.once('close', () => sockets.delete(upstream));
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    connect(client, upstream);
    connect(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  return {
    port,
    setDelay(ms) {
      delayMs = Math.max(0, ms);
    },
    cut() {
      held = true;
    },
    restore() {
      held = false;
      for (const lane of lanes) pump(lane);
    },
    close() {
      for (const lane of lanes) if (lane.timer !== null) clearTimeout(lane.timer);
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
