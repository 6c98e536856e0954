import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RefusalReason, SimRequest, SimResponse } from '../sim/messages.js';
import type { Simulator } from '../sim/simulator.js';
import { expectationFailed, headersTooLarge, internalError, requestTimeout, unreadableRequest, type SimError } from '../sim/errors.js';
import { errorBodyText } from '../sim/respond.js';
import { answerInspectorAsset } from './inspector-assets.js';
import { prometheusMetricsOf, type PrometheusMetrics } from './prometheus-metrics.js';
import type { SpanSink } from './otlp-spans.js';
import { clientAddressOf, readBodyThen, toSimRequest } from './translate.js';
import { createWriteBatch } from './write-batch.js';
import { SANDBOX_HEADER } from '../contract/sandboxes.js';
import { routeToSandbox, type SandboxRoute } from './sandboxes/sandbox-dispatch.js';
import type { SandboxRegistry } from './sandboxes/sandbox-registry.js';

/** Called after each response with what a request log needs (never a credential). */
export type RequestLogger = (entry: {
  method: string;
  path: string;
  status: number;
  requestId: string;
  durationMs: number;
  /** Why the request was refused, as the journal keeps it (absent for an answer that was not a refusal). */
  reason?: RefusalReason;
}) => void;

/** Seconds the server waits for a request's headers and body (`--request-timeout`). */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;
/** Seconds a response's socket may go without draining (a client that stopped reading) before it is destroyed (`--write-timeout`). */
export const DEFAULT_WRITE_TIMEOUT_SECONDS = 30;

/** Bodies up to this many characters are written in one piece; larger ones in pieces of this size, as the socket drains. */
const WRITE_PIECE_CHARS = 64 * 1024;

/** The end of the piece of `body` that starts at `start`: never between the two halves of a surrogate pair. */
function pieceEnd(body: string, start: number): number {
  const end = Math.min(start + WRITE_PIECE_CHARS, body.length);
  const last = body.charCodeAt(end - 1);
  return end < body.length && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/**
 * Writes a core response to a node response. HEAD gets the headers without the body. A large
 * body is written in pieces, the next one only once the socket has drained the last: the
 * server keeps the answer's text and at most a piece or two of encoded bytes, never a second
 * copy of the whole answer, however slowly the client reads.
 */
export function writeResponse(res: ServerResponse, response: SimResponse, head = false): void {
  const headers: string[] = [];
  for (const name in response.headers) headers.push(name, response.headers[name] as string);
  // A 204 or 304 carries no body and no Content-Length (RFC 9110 8.6).
  if (response.status !== 204 && response.status !== 304) headers.push('Content-Length', String(response.bytes ? response.bytes.length : Buffer.byteLength(response.body)));
  res.writeHead(response.status, headers);
  if (response.bytes) {
    res.end(head ? undefined : response.bytes);
    return;
  }
  const { body } = response;
  if (head || body.length <= WRITE_PIECE_CHARS) {
    res.end(head ? undefined : body);
    return;
  }
  let offset = 0;
  const pump = (): void => {
    while (offset < body.length && !res.destroyed) {
      const end = pieceEnd(body, offset);
      const drained = res.write(body.slice(offset, end));
      offset = end;
      if (!drained && offset < body.length) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/**
 * Gives the socket `ms` to drain what the server wrote: each time it drains, the wait starts
 * again, so a slow reader gets a large answer whole; a client that stops reading has its
 * connection destroyed, which frees the body and, through the response's `close`, the
 * request's in-flight slot. 0 waits forever.
 */
function watchWrite(res: ServerResponse, ms: number): void {
  if (ms <= 0 || res.writableFinished || res.destroyed) return;
  const timer = setTimeout(() => res.destroy(), ms);
  timer.unref();
  const drained = (): void => {
    timer.refresh();
  };
  const stop = (): void => {
    clearTimeout(timer);
    res.off('drain', drained);
  };
  res.on('drain', drained);
  res.once('finish', stop);
  res.once('close', stop);
}

/**
 * Sends a core response on a node response: waits its injected latency, writes it, and gives
 * the request's in-flight slot back once the last byte is out or the client has gone away. A
 * connection whose socket does not drain for `writeTimeoutMs` (default
 * {@link DEFAULT_WRITE_TIMEOUT_SECONDS} s) is destroyed: the client stopped reading.
 *
 * Most answers leave whole within `end` (the socket takes them at once): those give the slot
 * back there and then, and need neither the write watch's timer nor any listener. Only an
 * answer the socket buffers, or one held back by an injected latency, is watched.
 */
export function sendResponse(
  res: ServerResponse,
  response: SimResponse,
  head: boolean,
  done?: () => void,
  writeTimeoutMs = DEFAULT_WRITE_TIMEOUT_SECONDS * 1000,
): void {
  const { release } = response;
  let listening = false;
  const listen = (): void => {
    if (listening || !release) return;
    listening = true;
    res.once('finish', release);
    res.once('close', release);
  };
  const write = (): void => {
    if (res.destroyed) {
      release?.();
      return;
    }
    if (response.abort) {
      res.socket?.destroy();
      release?.();
      return;
    }
    if (response.status === 413) res.setHeader('Connection', 'close');
    writeResponse(res, response, head);
    if (res.writableFinished) release?.();
    else {
      listen();
      watchWrite(res, writeTimeoutMs);
    }
    done?.();
  };
  if (response.delayMs !== undefined && response.delayMs > 0) {
    // A client that goes away during the latency gives its slot back then.
    listen();
    setTimeout(write, response.delayMs);
  } else write();
}

/** How the adapter reads the client and how long it waits for it. */
export interface ListenerOptions {
  readonly log?: RequestLogger;
  readonly now?: () => number;
  /** See {@link sendResponse}; default {@link DEFAULT_WRITE_TIMEOUT_SECONDS}. */
  readonly writeTimeoutMs?: number;
  /**
   * Take the client address of anonymous limits from the forwarded headers a proxy in front
   * sets (`cf-connecting-ip`, `x-forwarded-for`, `x-real-ip`). Off by default: the socket peer
   * is the client, whatever the headers say.
   */
  readonly trustProxy?: boolean;
  /** Export each service request as a span (`--otlp-endpoint`, otlp-spans.ts); off by default. */
  readonly spans?: SpanSink;
  /**
   * Serve sandboxes: `POST /__sim/sandboxes` creates one in this registry, and a request with
   * the header `x-sim-sandbox` or under `/__sandbox/<id>` goes to its simulator
   * (`src/http/sandboxes/`). Without it, those routes answer 404 and every request goes to the
   * simulator.
   */
  readonly sandboxes?: SandboxRegistry;
}

/** Writes a refusal of the server's own (not the simulator's) and closes the connection, or with `keepAlive` keeps it (the body was read). */
function refuseRequest(res: ServerResponse, error: SimError, keepAlive = false): void {
  const body = errorBodyText(error);
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), ...error.headers };
  if (!keepAlive) headers.Connection = 'close';
  res.writeHead(error.status, headers);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/** Whether a request must be refused for having no Host header (HTTP/1.1, RFC 9112 3.2). */
function lacksHost(req: IncomingMessage): boolean {
  return req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined;
}

/**
 * A `node:http` request listener over a simulator: reads the body, hands the core a plain
 * request, sends what it answers (the answers of one turn of the event loop together, see
 * `write-batch.ts`). It decides nothing itself, except the refusals of HTTP
 * itself (an HTTP/1.1 request without Host: 400 in the JSON error shape). It times each answer
 * for the latency histogram of `GET /__sim/metrics` (`now`, default `performance.now`) and
 * installs the Prometheus renderer. The one exception is file serving the core cannot do: the
 * inspector's chart library (`/__sim/ui/assets/…`), read from the installed `uplot` package.
 */
export function createRequestListener(defaultSimulator: Simulator, options: ListenerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const { log, sandboxes } = options;
  const now = options.now ?? (() => performance.now());
  const writeTimeoutMs = options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_SECONDS * 1000;
  const trustProxy = options.trustProxy ?? false;
  const defaultMetrics = prometheusMetricsOf(defaultSimulator);
  const writes = createWriteBatch();
  const { spans } = options;
  const handleOptions = spans ? { holdSlot: true, trace: true, timer: now } : { holdSlot: true };
  if (sandboxes) defaultSimulator.control.sandboxes.useHost(sandboxes);
  return (req, res) => {
    if (lacksHost(req)) {
      req.resume();
      refuseRequest(res, unreadableRequest({ message: 'The request has no Host header', hint: 'HTTP/1.1 requests must name the host they are for (Host).' }));
      return;
    }
    if (!sandboxes) {
      serve(req, res, defaultSimulator, defaultMetrics, req.url, undefined);
      return;
    }
    const header = req.headers[SANDBOX_HEADER];
    const picked = routeToSandbox(sandboxes, req.url ?? '/', Array.isArray(header) ? header.join(', ') : header);
    if (picked instanceof Promise) {
      // The body waits meanwhile: nothing reads the request until it is served.
      picked.then(
        (route) => serveRoute(req, res, route),
        () => refuseRequest(res, internalError()),
      );
    } else serveRoute(req, res, picked);
  };

  /** Serves a request on the simulator its route picked, or refuses it (never with the server's own answer). */
  function serveRoute(req: IncomingMessage, res: ServerResponse, route: SandboxRoute): void {
    if (route.kind === 'refused') {
      // The body is read and dropped, the connection kept.
      req.resume();
      if (req.complete) refuseRequest(res, route.error, true);
      else req.once('end', () => refuseRequest(res, route.error, true));
      return;
    }
    if (route.kind === 'default') serve(req, res, defaultSimulator, defaultMetrics, req.url, undefined);
    else serve(req, res, route.simulator, prometheusMetricsOf(route.simulator), route.target, route.basePath);
  }

  /** Answers one request with `simulator`: `target` is the request line as that simulator sees it, `basePath` its mount. */
  function serve(req: IncomingMessage, res: ServerResponse, simulator: Simulator, metrics: PrometheusMetrics, target: string | undefined, basePath: string | undefined): void {
    if (answerInspectorAsset(req, res, target)) return;
    const started = now();
    const wallStarted = spans ? Date.now() : 0;
    const fail = (): void => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(errorBodyText(internalError()));
    };
    readBodyThen(req, (read) => {
      if (read.aborted) {
        res.destroy();
        return;
      }
      let request: SimRequest;
      try {
        request = toSimRequest(req, read, target, clientAddressOf(req, trustProxy));
        if (basePath !== undefined) request = { ...request, basePath };
      } catch {
        fail();
        return;
      }
      simulator.handle(request, handleOptions).then(
        (response) =>
          writes.defer(() =>
            sendResponse(
              res,
              response,
              req.method === 'HEAD',
              () => {
                const { method, path } = request;
                const durationMs = now() - started;
                metrics.observe({ method, path }, response.status, durationMs / 1000);
                log?.({ method, path, status: response.status, requestId: response.headers['X-Request-ID'] ?? '', durationMs, ...(response.reason ? { reason: response.reason } : {}) });
                if (spans && response.trace) spans.record(response.trace, wallStarted, wallStarted + durationMs);
              },
              writeTimeoutMs,
            ),
          ),
        fail,
      );
    });
  }
}

/**
 * Milliseconds a connection refused before its body was read stays open after the refusal,
 * dropping what the client still sends: closing a socket with unread bytes makes the kernel
 * reset the connection, and a client still sending a large body would see the reset instead
 * of the answer. The client closing ends it sooner.
 */
const LINGER_MS = 5_000;

/**
 * Answers what node's HTTP layer refuses before a request reaches the listener in the JSON
 * error shape of every other refusal, then closes the connection: a request line or headers it
 * cannot parse (400), headers over its limit (431), a request that did not arrive within the
 * request timeout (408). The refusal is followed by the end of the server's side; the rest of
 * what the client sends is read and dropped (each piece fails to parse again and comes back
 * here) until the client closes or {@link LINGER_MS} pass. A connection that broke is only closed.
 */
function createClientErrorHandler(requestTimeoutSeconds: number): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  const lingering = new WeakSet<Duplex>();
  return (error, socket) => {
    if (lingering.has(socket) && error.code !== 'ECONNRESET' && error.code !== 'EPIPE') return;
    // A response already under way on this connection cannot be followed by another one.
    const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'EPIPE' || current?.headersSent === true) {
      socket.destroy();
      return;
    }
    const refusal =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? headersTooLarge()
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? requestTimeout(requestTimeoutSeconds)
          : unreadableRequest();
    const body = errorBodyText(refusal);
    const reason = STATUS_CODES[refusal.status] ?? '';
    // An answer to HEAD has no body (its Content-Length is the body's a GET would get).
    socket.end(
      `HTTP/1.1 ${refusal.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${isHeadRequest(error) ? '' : body}`,
    );
    lingering.add(socket);
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
  };
}

/**
 * Whether a request node refused before the listener was a HEAD. Node names no method for a
 * request it could not parse, so this reads the start of the bytes it failed on: the request
 * line when they hold it (a request whose headers came in one read, up to 64 KiB). A request
 * whose headers came in several reads and overflowed in a later one cannot be told apart, and
 * gets the body as any other method.
 */
function isHeadRequest(error: NodeJS.ErrnoException): boolean {
  const raw = (error as { rawPacket?: unknown }).rawPacket;
  return Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
}

/** A running server and how to reach and stop it. */
export interface RunningServer {
  readonly server: Server;
  /** `http://host:port`, with the port actually bound (useful with port 0); a loopback address when bound to every interface. */
  readonly url: string;
  readonly port: number;
  /** The address actually bound, as the operating system reports it (`0.0.0.0`, `::`, `127.0.0.1`…). */
  readonly address: string;
  close(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface ServerOptions extends ListenerOptions {
  readonly port?: number;
  readonly host?: string;
  /**
   * Milliseconds a client has to send a request's headers and body (default
   * {@link DEFAULT_REQUEST_TIMEOUT_SECONDS} s); past it the request is answered 408 and the
   * connection closed. 0 waits forever.
   */
  readonly requestTimeoutMs?: number;
}

/** Starts the lean `node:http` server over a simulator. */
export function startServer(simulator: Simulator, options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000;
  const server = createServer(
    {
      keepAliveTimeout: 65_000,
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      // How often node looks for requests past their timeout: a quarter of it, at most every 30 s.
      connectionsCheckingInterval: requestTimeoutMs > 0 ? Math.max(10, Math.min(30_000, Math.floor(requestTimeoutMs / 4))) : 30_000,
      // The listener answers a missing Host itself, in the JSON error shape.
      requireHostHeader: false,
    },
    createRequestListener(simulator, options),
  );
  server.on('clientError', createClientErrorHandler(requestTimeoutMs / 1000));
  // Any Expect but 100-continue (node answers that one itself).
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    refuseRequest(res, expectationFailed());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port, address } = server.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
      resolve({
        server,
        port,
        address,
        url: `http://${shownHost}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }).then(() => options.sandboxes?.closeAll()),
      });
    });
  });
}
