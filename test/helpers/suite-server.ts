import { afterAll, beforeAll } from 'vitest';
import { startServer, type RunningServer, type ServerOptions } from '../../src/http/node-server.js';
import type { Simulator } from '../../src/sim/simulator.js';

/**
 * Serves `sim` over node:http on a free port for the enclosing `describe`: started before its
 * tests, closed after them. The returned object reads the running server's `url`, `port` and
 * `server` (valid inside the tests, not at collection time).
 */
export function serveDuringSuite(sim: Simulator, options: ServerOptions = {}): Pick<RunningServer, 'url' | 'port' | 'server'> {
  let running: RunningServer | undefined;
  beforeAll(async () => {
    running = await startServer(sim, { port: 0, ...options });
  });
  afterAll(async () => {
    await running?.close();
  });
  const current = (): RunningServer => {
    if (!running) throw new Error('the suite server is read before beforeAll started it');
    return running;
  };
  return {
    get url() {
      return current().url;
    },
    get port() {
      return current().port;
    },
    get server() {
      return current().server;
    },
  };
}
