/**
 * What sandboxes cost (`node --expose-gc --import tsx load/bench/sandboxes.ts`): in this
 * process, the time to create one through the registry the server uses and the heap of 64
 * idle ones (after a gc, over the heap before them), then of the same 64 after one
 * summary_metrics query each; then, over HTTP against the CLI (a child process with `--limits
 * off`, so every request does an admitted request's full work), the request rate with 1, 8
 * and 64 sandboxes busy at once: 64 autocannon connections in all, spread evenly over the
 * sandboxes, 5 s per row after 1 s of warm-up. The CLI is `ANALYTICS_SIM_CLI` (default
 * dist/cli/main.js).
 */
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { createSandboxRegistry } from '../../src/http/sandboxes/sandbox-registry.js';
import { createSimulator } from '../../src/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const START = Date.UTC(2025, 5, 2, 12);
const COUNT = 64;
const QUERY = JSON.stringify({ parameters: ['summary_metrics'], preset: 'last_7d' });

function heapMb(): number {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external + m.arrayBuffers) / 1024 / 1024;
}

// Warm: the first simulator of a seed builds the world functions every later one shares.
createSimulator({ seed: 42, startMs: START });
const registry = createSandboxRegistry({ create: (o) => createSimulator({ seed: o.seed ?? 42, startMs: o.startMs ?? START }), maxSandboxes: COUNT, idleMs: 0 });
const before = heapMb();
const times: number[] = [];
for (let i = 0; i < COUNT; i++) {
  const began = performance.now();
  const created = await registry.create({ id: `b${i}` }, 'http://bench');
  times.push(performance.now() - began);
  if ('status' in created) throw new Error(created.message);
}
const idle = heapMb();
for (let i = 0; i < COUNT; i++) {
  const sim = await registry.take(`b${i}`);
  if ('status' in sim) throw new Error(sim.message);
  const key = (sim.fixtures() as { apiKeys: { id: string; secret: string | null }[] }).apiKeys.find((k) => k.id === 'key_acme_read')?.secret ?? '';
  const answer = await sim.handle({ method: 'POST', path: '/v1/query', query: { website_id: 'web_acme_store' }, headers: { 'content-type': 'application/json', 'x-api-key': key }, body: QUERY });
  if (answer.status !== 200) throw new Error(`query answered ${answer.status}`);
}
const queried = heapMb();
times.sort((a, b) => a - b);
const lines = [
  `create: median ${times[COUNT / 2]?.toFixed(2)} ms, p90 ${times[Math.floor(COUNT * 0.9)]?.toFixed(2)} ms, max ${times[COUNT - 1]?.toFixed(2)} ms`,
  `heap of ${COUNT} idle sandboxes: ${(idle - before).toFixed(1)} MB, ${(((idle - before) / COUNT) * 1024).toFixed(0)} KB each`,
  `after one summary_metrics query each: ${(queried - before).toFixed(1)} MB, ${(((queried - before) / COUNT) * 1024).toFixed(0)} KB each`,
];
process.stdout.write(`${lines.join('\n')}\n`);
await registry.closeAll();

// Over HTTP: the CLI in its own process.
const cli = process.env.ANALYTICS_SIM_CLI ?? 'dist/cli/main.js';
const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--now', '2025-06-02T12:00:00Z', '--limits', 'off'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((resolve) => {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    const found = /listening on (http:\/\/\S+)/.exec(out);
    if (found) resolve(found[1] as string);
  });
});
const fixtures = (await (await fetch(`${url}/__sim/fixtures`)).json()) as { apiKeys: { id: string; secret: string | null }[] };
const key = fixtures.apiKeys.find((k) => k.id === 'key_acme_read')?.secret ?? '';
const posts: number[] = [];
for (let i = 0; i < COUNT; i++) {
  const began = performance.now();
  const res = await fetch(`${url}/__sim/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `s${i}` }) });
  await res.arrayBuffer();
  posts.push(performance.now() - began);
  if (res.status !== 201) throw new Error(`POST /__sim/sandboxes answered ${res.status}`);
}
posts.sort((a, b) => a - b);
process.stdout.write(`POST /__sim/sandboxes over HTTP: median ${posts[COUNT / 2]?.toFixed(2)} ms, max ${posts[COUNT - 1]?.toFixed(2)} ms\n`);

/** Requests a second over `sandboxes` sandboxes (0: the server's own simulator, no sandbox). */
async function rate(sandboxes: number, duration: number): Promise<number> {
  const runs = Array.from({ length: Math.max(1, sandboxes) }, (_, i) =>
    autocannon({
      url: `${url}${sandboxes === 0 ? '' : `/__sandbox/s${i}`}/v1/query?website_id=web_acme_store`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: QUERY,
      connections: COUNT / Math.max(1, sandboxes),
      duration,
    }),
  );
  const results = await Promise.all(runs);
  const non2xx = results.reduce((n, r) => n + r.non2xx + r.errors, 0);
  if (non2xx > 0) throw new Error(`${non2xx} answers were not 2xx`);
  return results.reduce((n, r) => n + r.requests.total, 0) / duration;
}

for (const sandboxes of [0, 1, 8, 64]) {
  await rate(sandboxes, 1);
  process.stdout.write(`${sandboxes === 0 ? 'no sandbox (the server itself)' : `${sandboxes} sandbox${sandboxes === 1 ? '' : 'es'} busy`}, 64 connections: ${Math.round(await rate(sandboxes, 5))} req/s (POST /v1/query summary_metrics last_7d)\n`);
}
child.kill('SIGTERM');
