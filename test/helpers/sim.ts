import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/index.js';
import type { Simulator as CoreSimulator } from '../../src/sim/simulator.js';

/** A parsed answer of the simulator. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The raw body text. */
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  key?: string;
}

/** Sends one request to a simulator in process, the way an adapter would. */
export async function call(sim: CoreSimulator, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await sim.handle({ method, path, query: options.query ?? {}, headers, ...(body !== undefined ? { body } : {}) });
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: { ...res.headers }, text: res.body, json };
}

/** A fresh simulator (seed 42, virtual clock at its default start unless told otherwise). */
export function freshSimulator(options: Partial<SimulatorOptions> = {}): Simulator {
  return createSimulator({ seed: 42, ...options });
}

/** The secret of a fixture key by id. */
export function secretOf(sim: CoreSimulator, keyId: string): string {
  const fixtures = sim.fixtures() as { apiKeys: { id: string; secret: string | null }[] };
  const secret = fixtures.apiKeys.find((k) => k.id === keyId)?.secret;
  if (!secret) throw new Error(`no fixture key ${keyId}`);
  return secret;
}
