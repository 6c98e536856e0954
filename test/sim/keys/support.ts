import { expect } from 'vitest';
import type { Simulator } from '../../../src/index.js';
import { call, type Answer } from '../../helpers/sim.js';

/** The format of every API key secret: `dbdy_` + 48 letters and digits. */
export const SECRET_FORMAT = /^dbdy_[A-Za-z0-9]{48}$/;

/** A body every create test can start from: global read:data on Acme. */
export const READ_KEY = { name: 'CI reader', organizationId: 'org_acme', scopes: ['read:data'] } as const;

/** `POST /__sim/keys` and the answer. */
export function createKey(sim: Simulator, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(sim, 'POST', '/__sim/keys', { body, headers });
}

/** Creates a key that must succeed; returns its id and secret. */
export async function createdKey(sim: Simulator, body: unknown = READ_KEY): Promise<{ id: string; secret: string; answer: Answer }> {
  const answer = await createKey(sim, body);
  expect(answer.status, answer.text).toBe(201);
  return { id: answer.json.key.id as string, secret: answer.json.secret as string, answer };
}

/** The status `GET /v1/query/websites` answers to a secret. */
export async function websitesStatus(sim: Simulator, secret: string): Promise<number> {
  return (await call(sim, 'GET', '/v1/query/websites', { key: secret })).status;
}

/** The website ids `GET /v1/query/websites` lists for a secret. */
export async function websiteIds(sim: Simulator, secret: string): Promise<string[]> {
  const answer = await call(sim, 'GET', '/v1/query/websites', { key: secret });
  expect(answer.status, answer.text).toBe(200);
  return (answer.json.websites as { id: string }[]).map((w) => w.id);
}

/** The audit records, optionally filtered. */
export async function auditRecords(sim: Simulator, query: Record<string, string> = {}): Promise<Record<string, any>[]> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const answer = await call(sim, 'GET', '/__sim/audit', { query });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.records;
}
