// @ts-check
/**
 * `node tools/measure-worlds.mjs [RUNS]`: the figures of docs/benchmarks.md "Worlds of each size".
 * Starts `dist/cli/main.js serve --port 0 --clock virtual` (build first: `node tools/build.mjs`)
 * with the default world and `--world small|medium|large`, RUNS times each (default 5): the time
 * from spawn to "listening on" (median) and the CPU time the process used until then (median; a
 * busy machine stretches the first, hardly the second), the resident memory (VmRSS) right after, and, in the
 * last run, the first and the warm `summary_metrics` `last_30d` on one website of each size.
 * Linux only (reads /proc). Every process it starts is stopped with SIGTERM.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const RUNS = Number(process.argv[2] ?? 5);
const WORLDS = [[], ['--world', 'small'], ['--world', 'medium'], ['--world', 'large']];

/** Resident memory of process `pid`, in MB. */
function rssOf(pid) {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(match?.[1] ?? 0) / 1024);
}

/** CPU time (user and system) process `pid` has used, in ms (clock ticks of 10 ms). */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Starts the CLI with `args`; resolves with its URL, the start time and the child. */
async function start(args) {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['dist/cli/main.js', 'serve', '--port', '0', '--clock', 'virtual', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before listening`)));
  });
  return { url, ms: Math.round(performance.now() - t0), cpu: cpuOf(child.pid ?? 0), child };
}

async function stop(child) {
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** First and warm summary_metrics on the first website of each size bucket. */
async function queries(url) {
  // Every page of the listing (1,000 of each list a page).
  const fixtures = { websites: [], apiKeys: [] };
  for (let page = 1; ; page++) {
    const listing = await (await fetch(`${url}/__sim/fixtures?page=${page}`)).json();
    fixtures.websites.push(...listing.websites);
    fixtures.apiKeys.push(...listing.apiKeys);
    if (page * 1000 >= Math.max(listing.totals.websites, listing.totals.apiKeys)) break;
  }
  const bySize = new Map();
  for (const site of fixtures.websites) if (!bySize.has(site.size)) bySize.set(site.size, site);
  const rows = [];
  for (const site of [...bySize.values()].sort((a, b) => a.baseDailySessions - b.baseDailySessions)) {
    const key = fixtures.apiKeys.find((k) => k.secret && k.scopes.includes('read:data') && k.organizationId === site.organizationId && (k.websiteIds === null || k.websiteIds.includes(site.id)));
    const ask = async () => {
      const t0 = performance.now();
      const res = await fetch(`${url}/v1/query?website_id=${encodeURIComponent(site.id)}`, {
        method: 'POST',
        headers: { 'x-api-key': key.secret, 'content-type': 'application/json' },
        body: JSON.stringify({ parameters: ['summary_metrics'], preset: 'last_30d' }),
      });
      await res.text();
      if (res.status !== 200) throw new Error(`${site.id}: ${res.status}`);
      return Math.round((performance.now() - t0) * 10) / 10;
    };
    const first = await ask();
    rows.push(`${site.size} (${site.id}, ${site.baseDailySessions}/day): first ${first} ms, warm ${await ask()} ms`);
  }
  return { websites: fixtures.websites.length, keys: fixtures.apiKeys.length, rows };
}

for (const args of WORLDS) {
  const times = [];
  const cpus = [];
  let rss = 0;
  let last;
  for (let run = 0; run < RUNS; run++) {
    const { url, ms, cpu, child } = await start(args);
    times.push(ms);
    cpus.push(cpu);
    rss = rssOf(child.pid);
    if (run === RUNS - 1) last = await queries(url);
    await stop(child);
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  console.log(`${args.join(' ') || '(default world)'}: start median ${times[Math.floor(times.length / 2)]} ms (${times.join(', ')}), CPU median ${cpus[Math.floor(cpus.length / 2)]} ms, RSS ${rss} MB, ${last?.websites} websites, ${last?.keys} keys`);
  for (const row of last?.rows ?? []) console.log(`  ${row}`);
}
