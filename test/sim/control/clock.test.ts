import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/sim/simulator.js';

const START = Date.UTC(2025, 5, 2, 12, 0, 0);

async function clockOf(sim: Simulator): Promise<{ mode: string; now: number; iso: string }> {
  const answer = await call(sim, 'GET', '/__sim/clock');
  expect(answer.status).toBe(200);
  return answer.json;
}

function setClock(sim: Simulator, body: unknown) {
  return call(sim, 'POST', '/__sim/clock', { body });
}

describe('GET /__sim/clock', () => {
  it('starts virtual at 2025-06-02T12:00:00Z by default', async () => {
    expect(await clockOf(freshSimulator())).toEqual({ mode: 'virtual', now: START, iso: '2025-06-02T12:00:00.000Z' });
  });

  it('starts at the instant the simulator was created with', async () => {
    const startMs = Date.UTC(2024, 4, 31);
    expect(await clockOf(freshSimulator({ startMs }))).toEqual({ mode: 'virtual', now: startMs, iso: '2024-05-31T00:00:00.000Z' });
  });

  it('does not move between requests on the virtual clock', async () => {
    const sim = freshSimulator();
    for (let i = 0; i < 5; i++) expect((await clockOf(sim)).now).toBe(START);
  });
});

describe('POST /__sim/clock', () => {
  it('advances virtual time by exactly advanceMs and answers the new clock', async () => {
    const sim = freshSimulator();
    const answer = await setClock(sim, { advanceMs: 90_001 });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ mode: 'virtual', now: START + 90_001, iso: new Date(START + 90_001).toISOString() });
    expect((await clockOf(sim)).now).toBe(START + 90_001);
    expect((await call(sim, 'GET', '/__sim/health')).json.clock.now).toBe(START + 90_001);
  });

  it('adds successive advances', async () => {
    const sim = freshSimulator();
    await setClock(sim, { advanceMs: 1 });
    await setClock(sim, { advanceMs: 86_400_000 });
    await setClock(sim, { advanceMs: 0 });
    expect((await clockOf(sim)).now).toBe(START + 86_400_001);
  });

  it('sets the instant from an ISO string', async () => {
    const sim = freshSimulator();
    const answer = await setClock(sim, { now: '2025-07-01T08:30:00.250Z' });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ mode: 'virtual', now: Date.UTC(2025, 6, 1, 8, 30, 0, 250), iso: '2025-07-01T08:30:00.250Z' });
  });

  it('sets the instant from an ISO string with an offset', async () => {
    const sim = freshSimulator();
    const answer = await setClock(sim, { now: '2025-07-01T10:00:00+02:00' });
    expect(answer.status).toBe(200);
    expect(answer.json.now).toBe(Date.UTC(2025, 6, 1, 8, 0, 0));
  });

  it('sets the instant from epoch milliseconds', async () => {
    const sim = freshSimulator();
    const at = START + 123_456_789;
    const answer = await setClock(sim, { now: at });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ mode: 'virtual', now: at, iso: new Date(at).toISOString() });
  });

  it('applies now, then advanceMs, when both are given', async () => {
    const sim = freshSimulator();
    const answer = await setClock(sim, { now: START + 1_000, advanceMs: 500 });
    expect(answer.status).toBe(200);
    expect(answer.json.now).toBe(START + 1_500);
  });

  it.each([
    ['an ISO instant', '2025-06-01T00:00:00Z'],
    ['epoch milliseconds', START - 1],
  ])('refuses to move backwards (%s) with 400 and a reason, and keeps the time', async (_label, now) => {
    const sim = freshSimulator();
    const answer = await setClock(sim, { now });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(answer.json.error).toMatch(/forward|backward/i);
    expect((await clockOf(sim)).now).toBe(START);
  });

  it('refuses to advance the real clock with 400 and a reason', async () => {
    const realNow = () => Date.UTC(2026, 0, 1);
    const sim = freshSimulator({ realNow });
    const toReal = await setClock(sim, { mode: 'real' });
    expect(toReal.status).toBe(200);
    expect(toReal.json).toEqual({ mode: 'real', now: realNow(), iso: '2026-01-01T00:00:00.000Z' });

    const answer = await setClock(sim, { advanceMs: 1_000 });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('VALIDATION_ERROR');
    expect(answer.json.error).toMatch(/virtual/i);
    expect(await clockOf(sim)).toEqual({ mode: 'real', now: realNow(), iso: '2026-01-01T00:00:00.000Z' });
  });

  it('refuses to switch to real time when the simulator has no real time source', async () => {
    const sim = freshSimulator();
    const answer = await setClock(sim, { mode: 'real' });
    expect(answer.status).toBe(400);
    expect(answer.json.error.length).toBeGreaterThan(0);
    expect((await clockOf(sim)).mode).toBe('virtual');
  });

  it('switches back from real to virtual at a chosen instant', async () => {
    const sim = freshSimulator({ realNow: () => Date.UTC(2026, 0, 1) });
    await setClock(sim, { mode: 'real' });
    const answer = await setClock(sim, { mode: 'virtual', now: '2026-02-01T00:00:00Z' });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ mode: 'virtual', now: Date.UTC(2026, 1, 1) });
  });

  it.each([
    ['an unknown field', { advanceMs: 1, jump: true }],
    ['a negative advanceMs', { advanceMs: -1 }],
    ['a fractional advanceMs', { advanceMs: 1.5 }],
    ['a string advanceMs', { advanceMs: '1000' }],
    ['an unparseable now', { now: 'tomorrow' }],
    ['an unknown mode', { mode: 'warp' }],
  ])('refuses %s with 422 VALIDATION and details, and keeps the time', async (_label, body) => {
    const sim = freshSimulator();
    const answer = await setClock(sim, body);
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({ success: false, code: 'VALIDATION' });
    expect(answer.json.details.length).toBeGreaterThan(0);
    expect((await clockOf(sim)).now).toBe(START);
  });
});

describe('instants outside the range of a date', () => {
  it.each([
    ['an advance past the largest date', { advanceMs: Number.MAX_SAFE_INTEGER }],
    ['an epoch instant past the largest date', { now: 8_640_000_000_000_001 }],
  ])('refuses %s with a 4xx and keeps answering', async (_label, body) => {
    const sim = freshSimulator();
    const answer = await setClock(sim, body);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.json.success).toBe(false);
    const health = await call(sim, 'GET', '/__sim/health');
    expect(health.status).toBe(200);
    expect(health.json.clock.now).toBe(START);
  });

  it('still accepts the largest representable instant', async () => {
    const sim = freshSimulator();
    const answer = await setClock(sim, { now: 8_640_000_000_000_000 });
    expect(answer.status).toBe(200);
    expect(answer.json.iso).toBe('+275760-09-13T00:00:00.000Z');
  });
});

describe("a key's expiry on the virtual clock", () => {
  const expiresAt = Date.UTC(2024, 5, 1);

  it('accepts key_acme_expired before 2024-06-01 and refuses it once the clock passes its expiry', async () => {
    const sim = freshSimulator({ startMs: Date.UTC(2024, 4, 31) });
    const key = secretOf(sim, 'key_acme_expired');

    const before = await call(sim, 'GET', '/v1/query/websites', { key });
    expect(before.status).toBe(200);
    expect(before.json.total).toBeGreaterThan(0);

    expect((await setClock(sim, { now: expiresAt - 1 })).status).toBe(200);
    expect((await call(sim, 'GET', '/v1/query/websites', { key })).status).toBe(200);

    expect((await setClock(sim, { advanceMs: 1 })).status).toBe(200);
    const at = await call(sim, 'GET', '/v1/query/websites', { key });
    expect(at.status).toBe(401);
    expect(at.json.code).toBe('AUTH_REQUIRED');
    expect(at.json.hint).toMatch(/expired/i);

    expect((await setClock(sim, { advanceMs: 2 * 86_400_000 })).status).toBe(200);
    expect((await call(sim, 'GET', '/v1/query/websites', { key })).status).toBe(401);
  });

  it('accepts the key again after a reset to a start before its expiry', async () => {
    const sim = freshSimulator({ startMs: Date.UTC(2024, 4, 31) });
    const key = secretOf(sim, 'key_acme_expired');
    await setClock(sim, { advanceMs: 7 * 86_400_000 });
    expect((await call(sim, 'GET', '/v1/query/websites', { key })).status).toBe(401);
    await call(sim, 'POST', '/__sim/reset');
    expect((await call(sim, 'GET', '/v1/query/websites', { key })).status).toBe(200);
  });
});
