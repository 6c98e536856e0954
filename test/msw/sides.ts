import type { IncomingMessage, ServerResponse } from 'node:http';
import { setupServer, type SetupServer } from 'msw/node';
import { createExpressApp } from '../../src/http/express-app.js';
import { createHandlers } from '../../src/msw/handlers.js';
import { createMemoryStore, createSimulator, type AdmissionStore, type Simulator, type SimulatorOptions } from '../../src/index.js';
import { gateSlots, type SlotGate } from '../helpers/slot-gate.js';
import { listen, type Listening } from '../helpers/wire.js';

/** An admission store that can be made to fail, to see the simulator's degraded mode (503). */
export interface SwitchableStore extends AdmissionStore {
  failing: boolean;
}

export function switchableStore(): SwitchableStore {
  const inner = createMemoryStore();
  const store: SwitchableStore = {
    failing: false,
    consume(id, now, limit, windowMs) {
      if (store.failing) throw new Error('store down');
      return inner.consume(id, now, limit, windowMs);
    },
    clear: () => inner.clear(),
    size: () => inner.size(),
  };
  return store;
}

/** The public names both transports answer under. */
export const API_HOST = 'analytics.test';
export const INGEST_HOST = 'ingest.analytics.test';

/** One way to reach a fresh simulator: the URLs a client fetches, and the simulator behind them. */
export interface Side {
  readonly name: 'express' | 'msw';
  readonly sim: Simulator;
  /** Counts the requests decided, and holds their in-flight slots while a concurrent row runs. */
  readonly gate: SlotGate;
  readonly store: SwitchableStore;
  readonly apiUrl: string;
  readonly ingestUrl: string;
  close(): Promise<void>;
}

/** The simulator options both sides share: the same seed, a small event store, a switchable admission store. */
function simulatorFor(options: Partial<SimulatorOptions>): { sim: Simulator; store: SwitchableStore } {
  const store = switchableStore();
  return { sim: createSimulator({ seed: 42, store, ...options }), store };
}

/**
 * The express app (src/http/express-app.ts) on port 0, with an API and an ingestion listener.
 * Each listener presents the public host name to the app, as a reverse proxy that keeps `Host`
 * does, so that answers naming the host (discovery documents) are comparable.
 */
export async function expressSide(options: Partial<SimulatorOptions> = {}): Promise<Side> {
  const { sim, store } = simulatorFor(options);
  const gate = gateSlots(sim);
  const app = createExpressApp(gate.sim);
  const asHost = (host: string) => (req: IncomingMessage, res: ServerResponse) => {
    req.headers.host = host;
    app(req, res);
  };
  const [api, ingest]: [Listening, Listening] = await Promise.all([listen(asHost(API_HOST)), listen(asHost(INGEST_HOST))]);
  return {
    name: 'express',
    sim,
    gate,
    store,
    apiUrl: api.url,
    ingestUrl: ingest.url,
    close: async () => {
      await Promise.all([api.close(), ingest.close()]);
    },
  };
}

/** MSW's setupServer with createHandlers: `fetch('http://analytics.test/…')` answered in process. */
export function mswSide(options: Partial<SimulatorOptions> = {}): Side & { server: SetupServer } {
  const { sim, store } = simulatorFor(options);
  const gate = gateSlots(sim);
  const apiUrl = `http://${API_HOST}`;
  const ingestUrl = `http://${INGEST_HOST}`;
  const server = setupServer(...createHandlers(gate.sim, { baseUrl: apiUrl, ingestUrl }));
  server.listen({ onUnhandledRequest: 'bypass' });
  return {
    name: 'msw',
    sim,
    gate,
    store,
    apiUrl,
    ingestUrl,
    server,
    close: async () => {
      server.close();
    },
  };
}
