import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FAULT_ROWS } from '../../load/faults/fault-rows.js';
import { formatMarkdown, verdictOf } from '../../load/faults/fault-table.js';
import type { RowResult } from '../../load/faults/measure-row.js';
import { createTcpProxy, type TcpProxy } from '../../load/faults/tcp-proxy.js';

/** The fault table's parts that need no Redis: the proxy's switches and each row's verdict. */
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An echo server on a free loopback port, and what it received. */
async function startEcho(): Promise<{ port: number; received: () => string }> {
  let received = '';
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => {
      received += chunk.toString();
      socket.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  });
  const address = server.address();
  return { port: typeof address === 'object' && address !== null ? address.port : 0, received: () => received };
}

/** A client of the proxy, resolving `read(n)` once n characters came back (bounded: 5 s). */
async function connect(proxy: TcpProxy): Promise<{ write(text: string): void; read(length: number): Promise<string> }> {
  const socket = createConnection({ host: '127.0.0.1', port: proxy.port });
  closers.push(() => {
    socket.destroy();
  });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  let buffer = '';
  socket.on('data', (chunk) => {
    buffer += chunk.toString();
    socket.emit('more');
  });
  return {
    write: (text) => socket.write(text),
    read: (length) =>
      new Promise((resolve, reject) => {
        const guard = setTimeout(() => reject(new Error(`only "${buffer}" within 5 s`)), 5000);
        const check = (): void => {
          if (buffer.length < length) return;
          clearTimeout(guard);
          socket.off('more', check);
          const out = buffer.slice(0, length);
          buffer = buffer.slice(length);
          resolve(out);
        };
        socket.on('more', check);
        check();
      }),
  };
}

describe('the fault table’s TCP proxy', () => {
  it('passes bytes through, keeps their order under a delay, and holds them through a cut until restored', async () => {
    const echo = await startEcho();
    const proxy = await createTcpProxy(echo.port);
    closers.push(() => proxy.close());
    const client = await connect(proxy);

    client.write('a');
    expect(await client.read(1)).toBe('a');

    proxy.setDelay(30);
    client.write('b');
    client.write('c');
    expect(await client.read(2)).toBe('bc');
    proxy.setDelay(0);

    proxy.cut();
    client.write('d');
    // A round trip beside the proxy: the echo server is live, yet has not seen the held byte.
    const other = await createTcpProxy(echo.port);
    closers.push(() => other.close());
    const beside = await connect(other);
    beside.write('x');
    expect(await beside.read(1)).toBe('x');
    expect(echo.received()).toBe('abcx');

    proxy.restore();
    expect(await client.read(1)).toBe('d');
    expect(echo.received()).toBe('abcxd');
  });
});

/** A passing result of `row`, changed by `change`. */
function resultOf(id: string, change: Partial<RowResult> = {}): RowResult {
  const row = FAULT_ROWS.find((r) => r.id === id)!;
  return {
    row,
    injected: { began: 0, ended: 0, detail: '' },
    statuses: { 200: 10 },
    slowestMs: 5,
    recoveryMs: 100,
    accuracy: 100,
    acknowledged: 10,
    counted: 10,
    recordsLost: row.keepsData ? 0 : 4,
    journalLost: 0,
    health: '',
    lossReported: !row.keepsData,
    problems: [],
    ...change,
  };
}

describe('a row of the fault table', () => {
  it('passes when nothing went wrong, and a restart without persistence passes with its records lost when health says so', () => {
    for (const row of FAULT_ROWS) expect(verdictOf(resultOf(row.id)), row.id).toEqual([]);
  });

  it('fails on a 500, a dropped request (unless a killed worker dropped it), a lost record where Redis kept its data, a slow recovery, and an unreported loss', () => {
    expect(verdictOf(resultOf('cut', { statuses: { 200: 9, 500: 1 } }))).toEqual(['1 answer(s) 500']);
    expect(verdictOf(resultOf('cut', { statuses: { 0: 2, 200: 8 } }))).toEqual(['2 request(s) without an answer (dropped, or past 10 s)']);
    expect(verdictOf(resultOf('kill-worker', { statuses: { 0: 2, 200: 8 } }))).toEqual([]);
    expect(verdictOf(resultOf('restart-aof', { recordsLost: 1 }))).toEqual(['1 acknowledged record(s) lost while Redis kept its data']);
    expect(verdictOf(resultOf('slow', { recoveryMs: 5001 }))).toEqual(["no answer within 5 s of the fault's end"]);
    expect(verdictOf(resultOf('slow', { recoveryMs: null }))).toEqual(["no answer within 5 s of the fault's end"]);
    expect(verdictOf(resultOf('restart-volatile', { lossReported: false }))).toEqual(['Redis lost its data and GET /__sim/health did not say so']);
    expect(verdictOf(resultOf('sentinel-failover', { lossReported: true }))).toEqual(['GET /__sim/health says the store lost its data, though Redis kept it']);
  });

  it('is written as a markdown row, the lost records of a restart without persistence marked as Redis’s', () => {
    const table = formatMarkdown([resultOf('restart-volatile', { statuses: { 200: 9, 503: 2 }, recoveryMs: 40 })]).split('\n');
    expect(table[2]).toBe('| Redis restart, no persistence | 200: 9, 503: 2 | 5 ms | 0.04 s | 100% | 10 | 4 (Redis lost data) | 0 | data lost |');
  });
});
