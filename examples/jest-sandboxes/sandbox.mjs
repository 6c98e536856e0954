// A sandbox per jest worker on the server global-setup.mjs started: call useSandbox() at the top
// of a test file. beforeAll makes it (id worker-<JEST_WORKER_ID>), beforeEach resets it, afterAll
// deletes it. describe, beforeAll, … are jest's globals.
export function useSandbox() {
  const server = process.env.ANALYTICS_SIM_URL;
  const id = `worker-${process.env.JEST_WORKER_ID ?? '1'}`;
  const sandbox = { id, baseUrl: '', secrets: new Map() };
  beforeAll(async () => {
    await fetch(`${server}/__sim/sandboxes/${id}`, { method: 'DELETE' }); // a leftover of this worker
    const created = await fetch(`${server}/__sim/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) });
    if (created.status !== 201) throw new Error(`POST /__sim/sandboxes answered ${created.status}: ${await created.text()}`);
    sandbox.baseUrl = (await created.json()).baseUrl;
    const fixtures = await (await fetch(`${sandbox.baseUrl}/__sim/fixtures`)).json();
    for (const key of fixtures.apiKeys) sandbox.secrets.set(key.id, key.secret);
  });
  beforeEach(async () => {
    await fetch(`${sandbox.baseUrl}/__sim/reset`, { method: 'POST' });
  });
  afterAll(async () => {
    await fetch(`${server}/__sim/sandboxes/${id}`, { method: 'DELETE' });
  });
  return sandbox;
}
