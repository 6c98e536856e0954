import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { SimResponse } from '../sim/messages.js';
import type { Simulator } from '../sim/simulator.js';
import { headersTooLarge, internalError, unreadableRequest } from '../sim/errors.js';
import { errorBodyText } from '../sim/respond.js';
import { answerInspectorAsset } from './inspector-assets.js';
import { prometheusMetricsOf } from './prometheus-metrics.js';
import { readBody, toSimRequest } from './translate.js';

/** Called after each response with what a request log needs (never a credential). */
export type RequestLogger = (entry: {
  method: string;
  path: string;
  status: number;
  requestId: string;
  durationMs: number;
}) => void;

/** Writes a core response to a node response. HEAD gets the headers without the body. */
export function writeResponse(res: ServerResponse, response: SimResponse, head = false): void {
  const headers: string[] = [];
  for (const name in response.headers) headers.push(name, response.headers[name] as string);
  // A 204 or 304 carries no body and no Content-Length (RFC 9110 8.6).
  if (response.status !== 204 && response.status !== 304) headers.push('Content-Length', String(Buffer.byteLength(response.body)));
  res.writeHead(response.status, headers);
  res.end(head ? undefined : response.body);
}

/**
 * Sends a core response on a node response: waits its injected latency, writes it, and gives
 * the request's in-flight slot back once the last byte is out or the client has gone away.
 */
export function sendResponse(res: ServerResponse, response: SimResponse, head: boolean, done?: () => void): void {
  if (response.release) {
    const release = response.release;
    res.once('finish', release);
    res.once('close', release);
  }
  const write = (): void => {
    if (res.destroyed) {
      response.release?.();
      return;
    }
    if (response.abort) {
      res.socket?.destroy();
      response.release?.();
      return;
    }
    if (response.status === 413) res.setHeader('Connection', 'close');
    writeResponse(res, response, head);
    done?.();
  };
  if (response.delayMs !== undefined && response.delayMs > 0) setTimeout(write, response.delayMs);
  else write();
}

/**
 * A `node:http` request listener over a simulator: reads the body, hands the core a plain
 * request, sends what it answers. It decides nothing itself. It times each answer for the
 * latency histogram of `GET /__sim/metrics` (`now`, default `performance.now`) and installs the
 * Prometheus renderer. The one exception is file
 * serving the core cannot do: the inspector's chart library (`/__sim/ui/assets/…`), read from
 * the installed `uplot` package.
 */
export function createRequestListener(
  simulator: Simulator,
  options: { log?: RequestLogger; now?: () => number } = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const { log } = options;
  const now = options.now ?? (() => performance.now());
  const metrics = prometheusMetricsOf(simulator);
  return (req, res) => {
    if (answerInspectorAsset(req, res, req.url)) return;
    const started = now();
    readBody(req)
      .then(async (read) => {
        if (read.aborted) {
          res.destroy();
          return;
        }
        const response = await simulator.handle(toSimRequest(req, read), { holdSlot: true });
        sendResponse(res, response, req.method === 'HEAD', () => {
          const method = req.method ?? 'GET';
          const path = (req.url ?? '/').split('?')[0] ?? '/';
          const durationMs = now() - started;
          metrics.observe({ method, path }, response.status, durationMs / 1000);
          log?.({ method, path, status: response.status, requestId: response.headers['X-Request-ID'] ?? '', durationMs });
        });
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(errorBodyText(internalError()));
      });
  };
}

/**
 * Answers a request node's HTTP parser refused (malformed request line, oversized or invalid
 * headers) with a JSON error instead of a bare status line, then closes the connection.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = errorBodyText(tooLarge ? headersTooLarge() : unreadableRequest());
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A running server and how to reach and stop it. */
export interface RunningServer {
  readonly server: Server;
  /** `http://host:port`, with the port actually bound (useful with port 0). */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Starts the lean `node:http` server over a simulator. */
export function startServer(
  simulator: Simulator,
  options: { port?: number; host?: string; log?: RequestLogger; now?: () => number } = {},
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer({ keepAliveTimeout: 65_000 }, createRequestListener(simulator, options));
  server.headersTimeout = 66_000;
  server.on('clientError', answerClientError);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
      resolve({
        server,
        port,
        url: `http://${shownHost}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
