import { inject, test as base } from 'vitest';

/** The worker's own sandbox on the shared server. */
export interface Sandbox {
  readonly id: string;
  /** Everything of the sandbox is under this URL: /v1/query, /track, /__sim/clock, … */
  readonly baseUrl: string;
  /** The secret of a fixture API key in this sandbox (`key_acme_read`, …). */
  secretOf(keyId: string): string;
  /** `POST /__sim/clock { advanceMs }` of this sandbox: only this worker's time moves. */
  advance(ms: number): Promise<void>;
}

/**
 * `test` with a `sandbox` fixture: one sandbox per worker (`VITEST_POOL_ID`), made on the
 * server global-setup.ts started, removed when the worker is done; `fresh` resets it before
 * a test that wants the seeded state (clock, limits, journal, keys) back.
 */
export const test = base.extend<{ $test: { fresh: Sandbox }; $worker: { sandbox: Sandbox } }>({
  sandbox: [
    async ({}, use) => {
      const server = inject('simUrl');
      const id = `worker-${process.env.VITEST_POOL_ID ?? '1'}`;
      // A sandbox left over by an earlier file of this worker (or an earlier run) goes first.
      await fetch(`${server}/__sim/sandboxes/${id}`, { method: 'DELETE' });
      const created = await fetch(`${server}/__sim/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) });
      if (created.status !== 201) throw new Error(`POST /__sim/sandboxes answered ${created.status}: ${await created.text()}`);
      const { baseUrl } = (await created.json()) as { baseUrl: string };
      const fixtures = (await (await fetch(`${baseUrl}/__sim/fixtures`)).json()) as { apiKeys: { id: string; secret: string | null }[] };
      await use({
        id,
        baseUrl,
        secretOf(keyId) {
          const secret = fixtures.apiKeys.find((k) => k.id === keyId)?.secret;
          if (!secret) throw new Error(`no fixture key ${keyId}`);
          return secret;
        },
        async advance(ms) {
          const res = await fetch(`${baseUrl}/__sim/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: ms }) });
          if (res.status !== 200) throw new Error(`POST /__sim/clock answered ${res.status}`);
        },
      });
      await fetch(`${server}/__sim/sandboxes/${id}`, { method: 'DELETE' });
    },
    { scope: 'worker' },
  ],
  fresh: async ({ sandbox }, use) => {
    await fetch(`${sandbox.baseUrl}/__sim/reset`, { method: 'POST' });
    await use(sandbox);
  },
});
