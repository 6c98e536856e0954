import type { Browser, BrowserContext } from 'playwright-core';

/** A browser context bound to one sandbox of a shared analytics-sim server. */
export interface SandboxContext {
  readonly id: string;
  /** The sandbox's base URL (`<server>/__sandbox/<id>`). */
  readonly baseUrl: string;
  /** The context: its pages and its `request` reach the sandbox only. */
  readonly context: BrowserContext;
  /** Closes the context and deletes the sandbox. */
  close(): Promise<void>;
}

/** How {@link openSandboxContext} makes the sandbox and binds the context to it. */
export interface SandboxContextOptions {
  /** The sandbox id, 1 to 64 letters, digits, _ or - (a worker's index makes a good one). */
  readonly id: string;
  /**
   * `path` (default): the context's baseURL is the sandbox's, with a trailing slash, so
   * relative URLs (`v1/query`, `__sim/ui`) stay under its prefix. `header`: the baseURL is the
   * server's and every request of the context carries `x-sim-sandbox: <id>`, so absolute paths
   * (`/v1/query`) reach the sandbox too; pages on other origins would need CORS for that header.
   */
  readonly by?: 'path' | 'header';
  /** The sandbox's creation options: seed, profile, clock, now (default: the server's). */
  readonly create?: { readonly seed?: string | number; readonly profile?: 'spec' | 'live'; readonly now?: string | number };
}

/**
 * Creates a sandbox on the server at `serverUrl` (a leftover of the same id is deleted first)
 * and opens a browser context bound to it. With `@playwright/test`, call it from a
 * worker-scoped fixture with `workerInfo.workerIndex` in the id, and hand the context's
 * baseURL on (see the README's CI section).
 */
export async function openSandboxContext(browser: Browser, serverUrl: string, options: SandboxContextOptions): Promise<SandboxContext> {
  const { id } = options;
  await fetch(`${serverUrl}/__sim/sandboxes/${id}`, { method: 'DELETE' });
  const created = await fetch(`${serverUrl}/__sim/sandboxes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, ...options.create }),
  });
  if (created.status !== 201) throw new Error(`POST /__sim/sandboxes answered ${created.status}: ${await created.text()}`);
  const { baseUrl } = (await created.json()) as { baseUrl: string };
  const context =
    options.by === 'header'
      ? await browser.newContext({ baseURL: serverUrl, extraHTTPHeaders: { 'x-sim-sandbox': id } })
      : await browser.newContext({ baseURL: `${baseUrl}/` });
  return {
    id,
    baseUrl,
    context,
    async close() {
      await context.close();
      await fetch(`${serverUrl}/__sim/sandboxes/${id}`, { method: 'DELETE' });
    },
  };
}
