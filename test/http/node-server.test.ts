import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { MAX_BODY_BYTES } from '../../src/sim/messages.js';
import { COMPILE_BODY, REQUEST_ID, SUMMARY_QUERY } from '../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer } from '../helpers/sim.js';
import { coreHeaders, fetchAnswer, rawRequest, withoutTrafficFigures } from '../helpers/wire.js';
import { serveDuringSuite } from '../helpers/suite-server.js';

interface WireCase {
  readonly method: string;
  readonly path: string;
  readonly query?: Record<string, string>;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

const json = (value: unknown): string => JSON.stringify(value);

function urlOf(base: string, c: WireCase): string {
  const url = new URL(c.path, base);
  for (const [name, value] of Object.entries(c.query ?? {})) url.searchParams.set(name, value);
  return url.toString();
}

function viaFetch(base: string, c: WireCase): Promise<Answer> {
  return fetchAnswer(urlOf(base, c), {
    method: c.method,
    headers: c.headers ?? {},
    ...(c.body !== undefined ? { body: c.body } : {}),
  });
}

describe('the node:http server', () => {
  const sim = freshSimulator();
  const read = secretOf(sim, 'key_acme_read');
  const server = serveDuringSuite(sim);

  it('listens on a free port and reports its URL', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('answers HEAD on /v1/query/types with 200, the headers and no body', async () => {
    const answer = await fetchAnswer(`${server.url}/v1/query/types`, { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-request-id']).toMatch(REQUEST_ID);
  });

  it('answers malformed JSON with 400 PARSE', async () => {
    const answer = await fetchAnswer(`${server.url}/v1/query?website_id=web_acme_store`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': read },
      body: '{"parameters": ["summary_metrics"',
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ success: false, code: 'PARSE' });
    expect(answer.json.requestId).toBe(answer.headers['x-request-id']);
  });

  describe('bodies over 1 MB', () => {
    const padded = (bytes: number): string => {
      const base = json(SUMMARY_QUERY);
      return base + ' '.repeat(bytes - Buffer.byteLength(base));
    };

    it('reads a body of exactly 1 MB', async () => {
      const answer = await fetchAnswer(`${server.url}/v1/query?website_id=web_acme_store`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': read },
        body: padded(MAX_BODY_BYTES),
      });
      expect(answer.status).toBe(200);
    });

    it('answers a body one byte over 1 MB, sent with Content-Length, with 413 PAYLOAD_TOO_LARGE', async () => {
      const answer = await fetchAnswer(`${server.url}/v1/query?website_id=web_acme_store`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': read },
        body: padded(MAX_BODY_BYTES + 1),
      });
      expect(answer.status).toBe(413);
      expect(answer.json).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
      expect(answer.json.requestId).toMatch(REQUEST_ID);
      expect(answer.json.requestId).toBe(answer.headers['x-request-id']);
    });

    it('answers a chunked body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const chunks = [json(SUMMARY_QUERY), ...Array.from({ length: 17 }, () => chunk)];
      const answer = await rawRequest(server.url, {
        method: 'POST',
        path: '/v1/query?website_id=web_acme_store',
        headers: { 'content-type': 'application/json', 'x-api-key': read },
        chunks,
      });
      expect(answer.headers['transfer-encoding']).toBeUndefined();
      expect(answer.status).toBe(413);
      expect(answer.json).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    });

    it('reads a chunked body under the limit', async () => {
      const text = json(SUMMARY_QUERY);
      const answer = await rawRequest(server.url, {
        method: 'POST',
        path: '/v1/query?website_id=web_acme_store',
        headers: { 'content-type': 'application/json', 'x-api-key': read },
        chunks: [text.slice(0, 5), text.slice(5, 17), text.slice(17)],
      });
      expect(answer.status).toBe(200);
      expect(answer.json.success).toBe(true);
    });

    it('keeps serving after a 413', async () => {
      const answer = await fetchAnswer(`${server.url}/__sim/health`);
      expect(answer.status).toBe(200);
    });
  });

  it('keeps one connection alive for many sequential requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let connections = 0;
    const count = (): void => {
      connections++;
    };
    server.server.on('connection', count);
    try {
      const ids: string[] = [];
      const reused: boolean[] = [];
      for (let i = 0; i < 40; i++) {
        const answer = await rawRequest(server.url, {
          method: i % 2 === 0 ? 'GET' : 'POST',
          path: i % 2 === 0 ? '/v1/query/types' : '/v1/query?website_id=web_acme_store',
          headers: i % 2 === 0 ? {} : { 'content-type': 'application/json', 'x-api-key': read },
          chunks: i % 2 === 0 ? [] : [json({ ...SUMMARY_QUERY, preset: 'today' })],
          agent,
        });
        expect(answer.status).toBe(200);
        ids.push(answer.headers['x-request-id'] as string);
        reused.push(answer.reusedSocket);
      }
      expect(connections).toBe(1);
      expect(reused.slice(1).every(Boolean)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      server.server.off('connection', count);
      agent.destroy();
    }
  });

  describe('clients that go away', () => {
    /** Sends the start of a request, waits until the server has it, then destroys the socket. */
    function abortMidBody(head: string, partialBody: string): Promise<void> {
      return new Promise((resolve, reject) => {
        const socket: Socket = connect(server.port, '127.0.0.1', () => {
          server.server.once('request', (req) => {
            req.once('close', () => resolve());
            socket.destroy();
          });
          socket.write(head + partialBody);
        });
        socket.on('error', reject);
      });
    }

    it('survives a client that aborts mid-body, and answers the next request', async () => {
      await abortMidBody(
        `POST /v1/query?website_id=web_acme_store HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nx-api-key: ${read}\r\nContent-Length: 5000\r\n\r\n`,
        '{"parameters": ["summ',
      );
      const answer = await fetchAnswer(`${server.url}/v1/query?website_id=web_acme_store`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': read },
        body: json(SUMMARY_QUERY),
      });
      expect(answer.status).toBe(200);
      expect(answer.json.success).toBe(true);
    });

    it('survives a client that aborts a chunked oversized body', async () => {
      await abortMidBody(
        'POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
        `10000\r\n${' '.repeat(0x10000)}\r\n10000\r\n${' '.repeat(0x8000)}`,
      );
      const answer = await fetchAnswer(`${server.url}/__sim/health`);
      expect(answer.status).toBe(200);
    });
  });

  describe('hostile input on the wire', () => {
    it('answers a 10 KB path with a JSON 404', async () => {
      const answer = await fetchAnswer(`${server.url}/v1/${'a'.repeat(10 * 1024)}`);
      expect(answer.status).toBe(404);
      expect(answer.json.code).toBe('NOT_FOUND');
      expect(answer.text.length).toBeLessThan(2_000);
    });

    it.each(['/v1/query/%E0%A4%A', '/%', '/v1/%00/query', '/%ZZ/%%'])('answers the raw path %s with a JSON 4xx', async (path) => {
      const answer = await rawRequest(server.url, { method: 'GET', path });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.json.success).toBe(false);
    });

    it('answers a long header value and unicode query strings cleanly', async () => {
      const answer = await fetchAnswer(`${server.url}/v1/query?website_id=${encodeURIComponent('ウェブ🚀')}&x=${encodeURIComponent('é'.repeat(500))}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': read, 'user-agent': 'u'.repeat(8 * 1024) },
        body: json(SUMMARY_QUERY),
      });
      expect(answer.status).toBe(403);
      expect(answer.json.code).toBe('ACCESS_DENIED');
    });

    it('answers headers over the server limit with 431 and the JSON error body of every other refusal', async () => {
      const answer = await rawRequest(server.url, { method: 'GET', path: '/v1/query/types', headers: { 'x-padding': 'p'.repeat(64 * 1024) } });
      expect(answer.status).toBe(431);
      expect(answer.json).toEqual({ success: false, error: 'Request headers are too large', code: 'HEADERS_TOO_LARGE' });
    });

    it('lets a client still sending a 4 MB body read the 431 of its oversized headers, never a reset', async () => {
      const socket = connect(server.port, '127.0.0.1');
      const piece = Buffer.alloc(64 * 1024, 0x20);
      const pieces = 64;
      const outcome = await new Promise<{ text: string; error?: string }>((resolve) => {
        let text = '';
        let error: string | undefined;
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
        socket.on('close', () => resolve({ text, ...(error === undefined ? {} : { error }) }));
        socket.write(`POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Padding: ${'p'.repeat(64 * 1024)}\r\nContent-Length: ${piece.length * pieces}\r\n\r\n`);
        let sent = 0;
        const pump = (): void => {
          while (sent < pieces && !socket.destroyed) {
            sent++;
            if (!socket.write(piece)) return void socket.once('drain', pump);
          }
          if (!socket.destroyed) socket.end();
        };
        pump();
      });
      expect(outcome.error).toBeUndefined();
      expect(outcome.text.startsWith('HTTP/1.1 431 Request Header Fields Too Large\r\n')).toBe(true);
      expect(JSON.parse(outcome.text.slice(outcome.text.indexOf('\r\n\r\n') + 4))).toMatchObject({ success: false, code: 'HEADERS_TOO_LARGE' });
    });

    it('answers a request line it cannot parse with 400 and the JSON error body', async () => {
      const socket = connect(server.port, '127.0.0.1');
      const raw = await new Promise<string>((resolve, reject) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.write('GET /v1/query/types HTTP/1.1 extra\r\nHost: x\r\n\r\n');
      });
      expect(raw.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ success: false, error: 'The request could not be read', code: 'BAD_REQUEST' });
    });

    /** Everything the server sends on a connection that gets `request`, until it closes. */
    const exchange = (request: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1');
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
        socket.end(request);
      });

    it.each([
      ['headers over the limit', `HEAD /v1/query/types HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'p'.repeat(64 * 1024)}\r\n\r\n`, 'HTTP/1.1 431 Request Header Fields Too Large\r\n'],
      ['a header it cannot parse', 'HEAD /v1/query/types HTTP/1.1\r\nHost: 127.0.0.1\r\nbad header\r\n\r\n', 'HTTP/1.1 400 Bad Request\r\n'],
      ['no Host header', 'HEAD /v1/query/types HTTP/1.1\r\n\r\n', 'HTTP/1.1 400 Bad Request\r\n'],
    ])('answers a HEAD with %s by the status line and headers alone, no body', async (_what, request, statusLine) => {
      const raw = await exchange(request);
      expect(raw.startsWith(statusLine)).toBe(true);
      expect(raw).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
      expect(raw.endsWith('\r\n\r\n')).toBe(true);
    });

    it('takes the first value of a repeated query parameter', async () => {
      const answer = await fetchAnswer(`${server.url}/v1/query?website_id=web_acme_store&website_id=web_globex_app`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': read },
        body: json(SUMMARY_QUERY),
      });
      expect(answer.status).toBe(200);
    });
  });
});

describe('the node:http server compared with the simulator in process', () => {
  const wireSim = freshSimulator();
  const localSim = freshSimulator();
  const read = secretOf(localSim, 'key_acme_read');
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer(wireSim, { port: 0 });
  });

  afterAll(async () => {
    await server.close();
  });

  const jsonHeaders = { 'content-type': 'application/json', 'x-api-key': read };
  const CASES: readonly WireCase[] = [
    { method: 'GET', path: '/v1/query/types' },
    { method: 'GET', path: '/v1/query/types', query: { include_meta: 'true' } },
    { method: 'GET', path: '/v1/query/websites', headers: { 'x-api-key': read } },
    { method: 'GET', path: '/v1/query/websites', headers: { authorization: `Bearer ${read}` } },
    { method: 'POST', path: '/v1/query', query: { website_id: 'web_acme_store' }, headers: jsonHeaders, body: json({ ...SUMMARY_QUERY, parameters: ['summary_metrics', 'top_pages', 'browser_name'] }) },
    { method: 'POST', path: '/v1/query', query: { website_id: 'web_acme_blog' }, headers: { 'content-type': 'application/json' }, body: json(SUMMARY_QUERY) },
    { method: 'POST', path: '/v1/query', query: { organization_id: 'org_acme' }, headers: jsonHeaders, body: json([SUMMARY_QUERY, { ...SUMMARY_QUERY, parameters: ['top_pages'] }]) },
    { method: 'POST', path: '/v1/query/compile', headers: jsonHeaders, body: json(COMPILE_BODY) },
    { method: 'GET', path: '/v1/query/websites' },
    { method: 'POST', path: '/v1/query', query: { website_id: 'web_globex_app' }, headers: jsonHeaders, body: json(SUMMARY_QUERY) },
    { method: 'DELETE', path: '/v1/query' },
    { method: 'GET', path: '/not/here' },
    { method: 'POST', path: '/v1/query', headers: jsonHeaders, body: json({ parameters: 5 }) },
    { method: 'GET', path: '/__sim/health' },
    { method: 'POST', path: '/__sim/clock', headers: { 'content-type': 'application/json' }, body: json({ advanceMs: 60_000 }) },
    { method: 'GET', path: '/__sim/clock' },
  ];

  it('answers a request sequence with the same status, body bytes and non-transport headers', async () => {
    for (const c of CASES) {
      const wire = await viaFetch(server.url, c);
      const local = await call(localSim, c.method, c.path, {
        query: c.query ?? {},
        headers: c.headers ?? {},
        ...(c.body !== undefined ? { body: c.body } : {}),
      });
      const label = `${c.method} ${c.path}`;
      expect(wire.status, label).toBe(local.status);
      expect(withoutTrafficFigures(wire.text), label).toBe(withoutTrafficFigures(local.text));
      expect(coreHeaders(wire.headers), label).toEqual(coreHeaders(local.headers));
      expect(wire.headers['content-length'], label).toBe(String(Buffer.byteLength(wire.text)));
    }
  });
});
