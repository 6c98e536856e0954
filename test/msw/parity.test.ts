import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, SERVER_ONLY_ERROR_CODES } from '../../src/contract/errors.js';
import { sessionTokenOf } from '../helpers/credentials.js';
import { secretOf } from '../helpers/sim.js';
import { coreHeaders, withoutTrafficFigures } from '../helpers/wire.js';
import { PARITY_MAX_EVENTS, ROWS, type Row, type Vars } from './parity-table.js';
import { expressSide, mswSide, type Side } from './sides.js';

/**
 * The same table of requests, in the same order, through the express app on a real port and
 * through MSW in process, against two fresh simulators with the same seed: every answer must
 * be the same status, the same headers (but the transport's own) and the same body bytes.
 */

/** An answer as a client sees it; `dropped` when fetch rejected (the connection was reset). */
interface Seen {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  readonly dropped?: true;
}

/** A client of one side: fixture secrets from its own simulator, values captured from its own answers. */
interface Client {
  readonly side: Side;
  readonly vars: Vars;
}

function clientOf(side: Side): Client {
  return {
    side,
    vars: {
      key: (id) => secretOf(side.sim, id),
      token: (userId) => sessionTokenOf(side.sim, userId),
      got: {},
    },
  };
}

const resolve = <T,>(value: T | ((v: Vars) => T), vars: Vars): T => (typeof value === 'function' ? (value as (v: Vars) => T)(vars) : value);

function requestOf(row: Row, client: Client): { url: string; init: RequestInit } {
  const { side, vars } = client;
  const headers: Record<string, string> = { ...resolve(row.headers ?? {}, vars) };
  const body = row.body === undefined ? undefined : resolve(row.body, vars);
  let text: string | undefined;
  if (body !== undefined) {
    text = typeof body === 'string' ? body : JSON.stringify(body);
    if (typeof body !== 'string') headers['content-type'] ??= 'application/json';
  }
  const base = row.host === 'ingest' ? side.ingestUrl : side.apiUrl;
  return { url: `${base}${resolve(row.path, vars)}`, init: { method: row.method ?? 'GET', headers, ...(text !== undefined ? { body: text } : {}) } };
}

async function send(url: string, init: RequestInit): Promise<Seen> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    return { status: 0, headers: {}, text: '', dropped: true };
  }
  const text = await response.text();
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers: coreHeaders(headers), text };
}

/** Sends a row's requests through one side and returns every answer, in the order sent. */
async function run(row: Row, client: Client): Promise<Seen[]> {
  row.before?.(client.side);
  const { url, init } = requestOf(row, client);
  const seen: Seen[] = [];
  if (row.concurrent !== undefined) {
    // Every copy keeps its in-flight slot until the last one has been decided: the overlap the
    // row is about is made by the gate, whatever the machine's speed or the answers' latency.
    const { gate } = client.side;
    const pending: Promise<Seen>[] = [];
    const start = gate.count();
    gate.hold();
    try {
      for (let i = 0; i < row.concurrent; i++) {
        pending.push(send(url, init));
        await gate.decided(start + i + 1);
      }
    } finally {
      gate.open();
    }
    seen.push(...(await Promise.all(pending)));
  } else {
    for (let i = 0; i < (row.times ?? 1); i++) seen.push(await send(url, init));
  }
  const last = seen[seen.length - 1];
  if (row.capture && last && !last.dropped) row.capture(JSON.parse(last.text), client.vars.got);
  return seen;
}

describe('express and MSW answer alike', () => {
  let express: Client;
  let msw: Client;
  /** Every error code either side answered, to check the table covers them all. */
  const codes = new Set<string>();
  let requests = 0;

  beforeAll(async () => {
    const options = { eventStorage: { maxEvents: PARITY_MAX_EVENTS } };
    express = clientOf(await expressSide(options));
    msw = clientOf(mswSide(options));
  });

  afterAll(async () => {
    await Promise.all([express?.side.close(), msw?.side.close()]);
  });

  it('has a table of at least 60 distinct requests', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(ROWS.map((row) => row.name)).size).toBe(ROWS.length);
  });

  describe.each(ROWS.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    it('gives the same status, headers and body through express and through MSW', async () => {
      const viaExpress = await run(row, express);
      const viaMsw = await run(row, msw);
      requests += viaExpress.length;
      for (const answer of viaExpress) {
        const code = answer.text.startsWith('{') ? (JSON.parse(answer.text) as { code?: unknown }).code : undefined;
        if (typeof code === 'string') codes.add(code);
      }
      expect(viaExpress.at(-1)?.status, 'the status the row is about').toBe(row.status);
      if (row.statuses) expect(viaExpress.map((a) => a.status)).toEqual(row.statuses);
      expect(viaMsw).toHaveLength(viaExpress.length);
      viaExpress.forEach((expected, i) => {
        const actual = viaMsw[i] as Seen;
        const which = viaExpress.length > 1 ? ` (request ${i + 1} of ${viaExpress.length})` : '';
        expect(actual.status, `status${which}`).toBe(expected.status);
        expect(actual.headers, `headers${which}`).toEqual(expected.headers);
        expect(withoutTrafficFigures(actual.text), `body${which}`).toBe(withoutTrafficFigures(expected.text));
        expect(actual.dropped, `dropped${which}`).toBe(expected.dropped);
      });
    });
  });

  it('covered every error code of the contract but the node server’s own, and more than 60 requests', () => {
    const simulatorCodes = Object.keys(ERROR_STATUS).filter((code) => !(SERVER_ONLY_ERROR_CODES as readonly string[]).includes(code));
    expect([...codes].sort()).toEqual(expect.arrayContaining(simulatorCodes.sort()));
    expect(requests).toBeGreaterThan(60);
  });

  it('left both simulators in the same state, and the journal exact on both', () => {
    expect(msw.side.sim.fixtures()).toEqual(express.side.sim.fixtures());
    expect(msw.side.sim.journal.list()).toEqual(express.side.sim.journal.list());
    expect(msw.side.sim.clock.now()).toBe(express.side.sim.clock.now());
  });
});
