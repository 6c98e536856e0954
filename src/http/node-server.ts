import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimResponse } from '../sim/exchange.js';
import type { Simulator } from '../sim/simulator.js';
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
  const headers: Record<string, string | number> = { ...response.headers, 'Content-Length': Buffer.byteLength(response.body) };
  res.writeHead(response.status, headers);
  res.end(head ? undefined : response.body);
}

/**
 * A `node:http` request listener over a simulator: reads the body, hands the core a plain
 * request, writes what it answers. It decides nothing itself.
 */
export function createRequestListener(
  simulator: Simulator,
  options: { log?: RequestLogger; now?: () => number } = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const { log, now } = options;
  return (req, res) => {
    const started = log && now ? now() : 0;
    readBody(req)
      .then((read) => simulator.handle(toSimRequest(req, read)))
      .then((response) => {
        if (read413(response)) res.setHeader('Connection', 'close');
        writeResponse(res, response, req.method === 'HEAD');
        if (log && now) {
          log({
            method: req.method ?? 'GET',
            path: (req.url ?? '/').split('?')[0] ?? '/',
            status: response.status,
            requestId: response.headers['X-Request-ID'] ?? '',
            durationMs: now() - started,
          });
        }
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end('{"success":false,"error":"Something went wrong on our side. Try again in a moment.","code":"INTERNAL_SERVER_ERROR"}');
      });
  };
}

function read413(response: SimResponse): boolean {
  return response.status === 413;
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
