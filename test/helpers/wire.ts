import { createServer, request as httpRequest, type Agent, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Answer } from './sim.js';

/** Headers that belong to the transport, not to the simulator's answer. */
export const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * An answer's body with the figures of `caches.traffic` (in `GET /__sim/health`) set to 0: the
 * generated traffic a simulator holds depends on what other simulators of the process computed
 * first (a result they computed from seeded traffic alone is read, not computed again), so two
 * simulators of one process compare equal only without them. Any other body is returned as is.
 */
export function withoutTrafficFigures(text: string): string {
  return text.replace(/"traffic":\{"entries":\d+,"bytes":\d+\}/, '"traffic":{"entries":0,"bytes":0}');
}

/** Sends one request with global fetch and reads the whole answer (header names lower-case). */
export async function fetchAnswer(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: res.status, headers, text, json: parseJson(text) };
}

/** The answer's headers without the transport ones, names lower-case: what the core decided. */
export function coreHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!TRANSPORT_HEADERS.has(lower)) out[lower] = value;
  }
  return out;
}

export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string | number>;
  /** Written in these chunks; with no Content-Length header node sends them chunked. */
  readonly chunks?: readonly (string | Buffer)[];
  readonly agent?: Agent | false;
}

/** A request with node:http, for what fetch cannot do (chunked uploads, chosen agents). */
export function rawRequest(baseUrl: string, options: RawRequest): Promise<Answer & { reusedSocket: boolean }> {
  const url = new URL(options.path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: `${url.pathname}${url.search}`,
        headers: options.headers ?? {},
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({ status: res.statusCode ?? 0, headers, text, json: parseJson(text), reusedSocket: req.reusedSocket });
        });
      },
    );
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

/** A listening node:http server over any request listener (an express app, for example). */
export interface Listening {
  readonly server: Server;
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, port 0. */
export function listen(listener: RequestListener): Promise<Listening> {
  const server = createServer(listener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
