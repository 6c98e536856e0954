import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { freshSimulator, secretOf } from '../helpers/sim.js';
import { fetchAnswer } from '../helpers/wire.js';
import { serveDuringSuite } from '../helpers/suite-server.js';

/** Bytes of the padded answer: far more than the socket buffers of both ends hold. */
const LARGE_BYTES = 32 * 1024 * 1024;

/** The write timeout of the server of large answers. */
const WRITE_TIMEOUT_MS = 300;

/** Called with how long the slot of a large answer was held, in ms from the decision, when the server gives it back. */
type OnSlotFreed = (heldMs: number) => void;

/**
 * The simulator, except that its answer to GET /v1/query/types is padded to {@link LARGE_BYTES}
 * (the request is still admitted, and its in-flight slot held, by the real core), and that the
 * server's giving that slot back is reported to `onFreed`.
 */
function withLargeTypes(sim: Simulator, onFreed: () => OnSlotFreed): Simulator {
  const large: Simulator = Object.create(sim) as Simulator;
  Object.defineProperty(large, 'handle', {
    value: async (...args: Parameters<Simulator['handle']>) => {
      const response = await sim.handle(...args);
      if (args[0].path !== '/v1/query/types' || response.status !== 200) return response;
      const decidedAt = performance.now();
      let freed = false;
      const release = (): void => {
        if (!freed) onFreed()(performance.now() - decidedAt);
        freed = true;
        response.release?.();
      };
      return { ...response, body: `[${' '.repeat(LARGE_BYTES)}]`, release };
    },
  });
  return large;
}

/** Sends raw bytes and collects what comes back until the server closes the connection. */
function exchangeRaw(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

function bodyOf(raw: string): unknown {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
}

describe('the node:http server with slow and vanished clients', () => {
  const sim = freshSimulator();
  const read = secretOf(sim, 'key_acme_read');
  let server: RunningServer;
  /**
   * The same, with the default write timeout (30 s, past any test's timeout): a client that
   * reads is never cut short by a pause the machine makes it take.
   */
  let patient: RunningServer;
  /** A server with a short request timeout. */
  let stalling: RunningServer;

  /** Told when the server gives back the slot of a large answer. */
  let onFreed: OnSlotFreed = () => undefined;
  const slotFreed = (): Promise<number> => new Promise((resolve) => (onFreed = resolve));

  beforeAll(async () => {
    server = await startServer(withLargeTypes(sim, () => onFreed), { port: 0, writeTimeoutMs: WRITE_TIMEOUT_MS });
    patient = await startServer(withLargeTypes(sim, () => onFreed), { port: 0 });
    stalling = await startServer(sim, { port: 0, requestTimeoutMs: 300 });
  });

  afterAll(async () => {
    await server.close();
    await patient.close();
    await stalling.close();
  });

  const inFlightOfReadKey = async (): Promise<number> => {
    const limits = await fetchAnswer(`${server.url}/__sim/limits`);
    if (!limits.json?.keys) throw new Error(`${limits.status} ${limits.text}`);
    return (limits.json.keys as { id: string; inFlight: number }[]).find((k) => k.id === 'key_acme_read')?.inFlight ?? -1;
  };

  it('destroys the connection of a client that never reads a large answer, and frees its in-flight slot', async () => {
    const socket: Socket = connect(server.port, '127.0.0.1');
    socket.pause();
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    const freed = slotFreed();
    socket.write(`GET /v1/query/types HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${read}\r\n\r\n`);
    // The request is admitted and holds its slot while the answer waits for the client, until
    // the server gives up on it after the write timeout: the slot is free while the client
    // still reads nothing.
    expect(await freed).toBeGreaterThanOrEqual(WRITE_TIMEOUT_MS - 1);
    expect(await inFlightOfReadKey()).toBe(0);
    // Reading now, the client finds the answer cut short and the connection closed.
    socket.resume();
    await closed;
    expect(socket.bytesRead).toBeGreaterThan(0);
    expect(socket.bytesRead).toBeLessThan(LARGE_BYTES);
  });

  it('delivers a large answer whole to a client that reads it', async () => {
    const answer = await fetchAnswer(`${patient.url}/v1/query/types`, { headers: { 'x-api-key': read } });
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBe(LARGE_BYTES + 2);
    expect(await inFlightOfReadKey()).toBe(0);
  });

  it('answers a client that stalls in the middle of its headers with 408 in the JSON error shape, and closes', async () => {
    const raw = await exchangeRaw(stalling.port, 'GET /v1/query/types HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-');
    expect(raw.startsWith('HTTP/1.1 408 Request Timeout\r\n')).toBe(true);
    expect(raw).toContain('\r\nConnection: close\r\n');
    expect(bodyOf(raw)).toMatchObject({ success: false, code: 'REQUEST_TIMEOUT', error: 'The request did not arrive in time' });
  });

  it('answers a client that stalls in the middle of its body with 408 and never runs the request', async () => {
    const raw = await exchangeRaw(
      stalling.port,
      `POST /v1/query?website_id=web_acme_store HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nx-api-key: ${read}\r\nContent-Length: 100\r\n\r\n{"par`,
    );
    expect(raw.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(bodyOf(raw)).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(await inFlightOfReadKey()).toBe(0);
  });
});

describe('large answers with characters outside the BMP', () => {
  it('arrive byte for byte, whatever piece boundaries fall inside a surrogate pair', async () => {
    const sim = freshSimulator();
    // The first piece would end between the halves of the first rocket.
    const text = `["${'a'.repeat(65_533)}${'🚀'.repeat(100_000)}é"]`;
    const emoji: Simulator = Object.create(sim) as Simulator;
    Object.defineProperty(emoji, 'handle', {
      value: async (...args: Parameters<Simulator['handle']>) => ({ ...(await sim.handle(...args)), body: text }),
    });
    const server = await startServer(emoji, { port: 0 });
    try {
      const answer = await fetchAnswer(`${server.url}/__sim/health`);
      expect(answer.text).toBe(text);
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(text));
    } finally {
      await server.close();
    }
  });
});

describe("the node:http server's own refusals", () => {
  const sim = freshSimulator();
  const server = serveDuringSuite(sim);

  it('answers an HTTP/1.1 request without Host with 400 in the JSON error shape, and closes', async () => {
    const raw = await exchangeRaw(server.port, 'GET /v1/query/types HTTP/1.1\r\n\r\n');
    expect(raw.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
    expect(raw).toContain('\r\nContent-Type: application/json; charset=utf-8\r\n');
    expect(raw).toContain('\r\nConnection: close\r\n');
    expect(bodyOf(raw)).toEqual({
      success: false,
      error: 'The request has no Host header',
      code: 'BAD_REQUEST',
      hint: 'HTTP/1.1 requests must name the host they are for (Host).',
    });
  });

  it('answers an HTTP/1.0 request without Host as usual', async () => {
    const raw = await exchangeRaw(server.port, 'GET /__sim/health HTTP/1.0\r\n\r\n');
    expect(raw.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
  });

  it('answers an Expect other than 100-continue with 417 in the JSON error shape', async () => {
    const raw = await exchangeRaw(server.port, 'GET /v1/query/types HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\n\r\n');
    expect(raw.startsWith('HTTP/1.1 417 Expectation Failed\r\n')).toBe(true);
    expect(bodyOf(raw)).toEqual({
      success: false,
      error: 'Expectation failed',
      code: 'EXPECTATION_FAILED',
      hint: 'The only expectation this server meets is Expect: 100-continue.',
    });
  });

  it('answers Expect: 100-continue with a body over 1 MB with 413 in the JSON error shape', async () => {
    const raw = await exchangeRaw(
      server.port,
      `POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2000000\r\nConnection: close\r\n\r\n${' '.repeat(2_000_000)}`,
    );
    const final = raw.slice(raw.lastIndexOf('HTTP/1.1 '));
    expect(final.startsWith('HTTP/1.1 413 Payload Too Large\r\n')).toBe(true);
    expect(bodyOf(final)).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });
});
