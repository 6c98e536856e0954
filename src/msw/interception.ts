import { http } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';

/**
 * MSW's interception of `fetch` and `node:http` is global to a process, and two MSW servers
 * listening at once get in each other's way (the first to find a request unhandled sends it to
 * the network). So every `setupSimulator` of a process shares one MSW server, whose single
 * handler asks each live simulator in turn; each answers only its own base URLs. Test files
 * run in their own workers, with their own server.
 */

/** One live simulator on the shared server. */
export interface Interception {
  readonly resolve: (request: Request) => Promise<Response | undefined>;
  readonly onUnhandledRequest: 'bypass' | 'warn' | 'error';
}

const live: Interception[] = [];
let shared: SetupServer | null = null;

/** The strictest wish among the live simulators for requests none of them answers. */
function unhandledStrategy(request: Request, print: { warning(): void; error(): void }): void {
  if (live.some((i) => i.onUnhandledRequest === 'error')) print.error();
  else if (live.some((i) => i.onUnhandledRequest === 'warn')) print.warning();
  void request;
}

/** Starts answering with `interception` (starting the shared server if needed); returns how to stop. */
export function intercept(interception: Interception): { server: SetupServer; stop(): void } {
  if (shared === null) {
    shared = setupServer(
      http.all('*', async ({ request }) => {
        for (const entry of [...live]) {
          const response = await entry.resolve(request);
          if (response !== undefined) return response;
        }
        return undefined;
      }),
    );
    shared.listen({ onUnhandledRequest: unhandledStrategy });
  }
  const server = shared;
  live.push(interception);
  let stopped = false;
  return {
    server,
    stop() {
      if (stopped) return;
      stopped = true;
      live.splice(live.indexOf(interception), 1);
      if (live.length === 0 && shared === server) {
        shared = null;
        server.close();
      }
    },
  };
}
