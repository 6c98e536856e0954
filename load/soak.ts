/**
 * `npm run soak -- [--minutes n] [--interval s] [--connections n] [--load f] [--track-rate n] [--target URL] [--csv FILE]`
 *
 * Mixed load for a long time: queries of several types (a summary, top pages, a daily series, a
 * country breakdown, an hourly batch) over several websites, beside a steady `POST /track`
 * stream at `--track-rate` events per second (0 for none). The queries run closed-loop (as fast
 * as the server answers), or, with `--load f`, at the fraction f of the peak: the soak first
 * measures the closed-loop query rate for 20 s, then offers f of it at a fixed rate. Starts its
 * own simulator (`node dist/cli/main.js serve --port 0 --clock real --limits off`) unless
 * --target is given. Prints, per interval, the query and track rates, the queries' p99 latency,
 * and the server's resident memory and CPU use (read from /proc for its own server; empty with
 * --target), and writes them as a plot-ready CSV (minute, queries_per_s, tracks_per_s, rss_mb,
 * p99_ms, cpu_pct; default .load-reports/soak-<time>.csv). `--minutes` may be fractional (0.5
 * for a quick check). Exit status 2 on bad arguments.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { describeArgumentError } from '../src/cli/args.js';
import { processCpuUs, residentMb } from './process-usage.js';
import { reportPath } from './report-path.js';
import { startServer, type Server } from './runner.js';

const usage = `Usage: npm run soak -- [options]

  --minutes <n>       how long to run, fractional allowed (default 15)
  --interval <s>      seconds per printed row and CSV line (default 60, at most a tenth of the run)
  --connections <n>   query connections (default 16)
  --load <f>          offer this fraction of the peak query rate (measured first, 20 s),
                      0 < f <= 1; default: closed loop, as fast as the server answers
  --track-rate <n>    POST /track events per second, 0 for none (default 50)
  --target <url>      a running simulator (its limits should be off); default: start one
  --csv <file>        where the CSV goes (default .load-reports/soak-<time>.csv)
  -h, --help          this text
`;

const FLAGS = ['minutes', 'interval', 'connections', 'load', 'track-rate', 'target', 'csv', 'help'];

/** Seconds of closed-loop queries that measure the peak before a `--load` soak. */
const PEAK_SECONDS = 20;

interface Args {
  readonly minutes: number;
  readonly interval: number;
  readonly connections: number;
  /** The fraction of the peak query rate to offer, or null for a closed loop. */
  readonly load: number | null;
  readonly trackRate: number;
  readonly target: string | undefined;
  readonly csv: string;
}

function positive(name: string, text: string | undefined, fallback: number, allowZero = false): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) throw new Error(`--${name} takes a ${allowZero ? 'non-negative' : 'positive'} number, not '${text}'`);
  return value;
}

function readArgs(argv: string[]): Args | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: 'string' },
      interval: { type: 'string' },
      connections: { type: 'string' },
      load: { type: 'string' },
      'track-rate': { type: 'string' },
      target: { type: 'string' },
      csv: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return 'help';
  const minutes = positive('minutes', values.minutes, 15);
  const interval = Math.min(positive('interval', values.interval, 60), Math.max(1, (minutes * 60) / 10));
  const load = values.load === undefined ? null : positive('load', values.load, 1);
  if (load !== null && load > 1) throw new Error(`--load takes a fraction of the peak above 0 and at most 1, not '${values.load}'`);
  return {
    minutes,
    interval,
    connections: Math.max(1, Math.round(positive('connections', values.connections, 16))),
    load,
    trackRate: positive('track-rate', values['track-rate'], 50, true),
    target: values.target?.replace(/\/$/, ''),
    csv: reportPath(values.csv ?? `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`),
  };
}

/** CPU time (user + system) of a local process so far, in ms (Linux); null elsewhere. */
function cpuMs(pid: number | undefined): number | null {
  const us = processCpuUs(pid);
  return us === undefined ? null : us / 1000;
}

/** The 99th percentile of some latencies (ms), or null when there are none. Sorts in place. */
function p99(latencies: number[]): number | null {
  if (latencies.length === 0) return null;
  latencies.sort((a, b) => a - b);
  return latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] as number;
}

/** The mixed query bodies, cycled over by the query connections. */
function queryRequests(readKey: string): autocannon.Request[] {
  const sites = ['web_acme_www', 'web_acme_store', 'web_acme_blog', 'web_acme_docs'];
  const bodies = [
    { parameters: ['summary_metrics'], preset: 'last_7d' },
    { parameters: ['top_pages'], preset: 'last_30d', limit: 20 },
    { parameters: ['events_by_date'], preset: 'last_30d' },
    { parameters: ['country', 'device_types'], preset: 'last_14d' },
    [
      { parameters: ['summary_metrics'], preset: 'today', granularity: 'hourly' },
      { parameters: ['custom_events'], preset: 'last_7d' },
    ],
  ];
  return sites.flatMap((site) =>
    bodies.map((body) => ({
      method: 'POST' as const,
      path: `/v1/query?website_id=${site}`,
      headers: { 'content-type': 'application/json', 'x-api-key': readKey },
      body: JSON.stringify(body),
    })),
  );
}

async function fixtureSecret(url: string, id: string): Promise<string> {
  const res = await fetch(`${url}/__sim/fixtures`);
  if (!res.ok) throw new Error(`GET ${url}/__sim/fixtures answered ${res.status}`);
  const fixtures = (await res.json()) as { apiKeys: { id: string; secret: string | null }[] };
  const secret = fixtures.apiKeys.find((key) => key.id === id)?.secret;
  if (!secret) throw new Error(`the simulator at ${url} has no fixture key ${id}`);
  return secret;
}

function drive(options: autocannon.Options, count: (status: number, ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result)));
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => count(status, ms));
  });
}

async function soak(args: Args): Promise<void> {
  let server: Server | null = null;
  const url = args.target ?? (server = await startServer(undefined, ['--limits', 'off'])).url;
  try {
    const [readKey, trackKey] = await Promise.all([fixtureSecret(url, 'key_acme_read'), fixtureSecret(url, 'key_acme_track')]);
    const seconds = args.minutes * 60;
    let queryRate: number | null = null;
    if (args.load !== null) {
      process.stdout.write(`soak: measuring the peak query rate, ${PEAK_SECONDS} s closed loop\n`);
      const peak = await drive({ url, connections: args.connections, duration: PEAK_SECONDS, requests: queryRequests(readKey) }, () => undefined);
      queryRate = Math.max(1, Math.round(peak.requests.average * args.load));
      process.stdout.write(`soak: peak ${peak.requests.average.toFixed(0)} queries/s; offering ${queryRate} queries/s (${Math.round(args.load * 100)}%)\n`);
    }
    const counts = { queries: 0, tracks: 0, failed: 0 };
    let latencies: number[] = [];
    const began = Date.now();
    const lines = ['minute,queries_per_s,tracks_per_s,rss_mb,p99_ms,cpu_pct'];
    mkdirSync(dirname(args.csv), { recursive: true });
    let last = { at: began, queries: 0, tracks: 0, cpu: cpuMs(server?.child.pid) };
    const sample = (): void => {
      const now = Date.now();
      const span = (now - last.at) / 1000;
      const rss = residentMb(server?.child.pid) ?? null;
      const cpu = cpuMs(server?.child.pid);
      const latency = p99(latencies);
      latencies = [];
      const row = {
        minute: ((now - began) / 60_000).toFixed(2),
        queries: ((counts.queries - last.queries) / span).toFixed(0),
        tracks: ((counts.tracks - last.tracks) / span).toFixed(0),
        rss: rss === null ? '' : rss.toFixed(0),
        p99: latency === null ? '' : latency.toFixed(0),
        cpu: cpu === null || last.cpu === null ? '' : ((100 * (cpu - last.cpu)) / (span * 1000)).toFixed(0),
      };
      lines.push(`${row.minute},${row.queries},${row.tracks},${row.rss},${row.p99},${row.cpu}`);
      writeFileSync(args.csv, `${lines.join('\n')}\n`);
      process.stdout.write(
        `${row.minute.padStart(7)} min  ${row.queries.padStart(6)} queries/s  ${row.tracks.padStart(5)} tracks/s  p99 ${row.p99 || '?'} ms  rss ${row.rss || '?'} MB  cpu ${row.cpu || '?'}%\n`,
      );
      last = { at: now, queries: counts.queries, tracks: counts.tracks, cpu };
    };
    const offered = queryRate === null ? `${args.connections} query connections, closed loop` : `${queryRate} queries/s over ${args.connections} connections`;
    process.stdout.write(`soak: ${args.minutes} min against ${url}, ${offered}, ${args.trackRate} tracks/s\n`);
    const timer = setInterval(sample, args.interval * 1000);
    const ok = (status: number, kind: 'queries' | 'tracks'): void => {
      if (status === 200) counts[kind]++;
      else counts.failed++;
    };
    try {
      await Promise.all([
        drive({ url, connections: args.connections, duration: seconds, requests: queryRequests(readKey), ...(queryRate === null ? {} : { overallRate: queryRate }) }, (status, ms) => {
          ok(status, 'queries');
          latencies.push(ms);
        }),
        ...(args.trackRate > 0
          ? [
              drive(
                {
                  url: `${url}/track?website_id=web_acme_www`,
                  method: 'POST',
                  headers: { 'content-type': 'application/json', 'x-api-key': trackKey },
                  body: JSON.stringify({ name: 'soak', properties: { plan: 'soak' } }),
                  connections: 2,
                  overallRate: args.trackRate,
                  duration: seconds,
                },
                (status) => ok(status, 'tracks'),
              ),
            ]
          : []),
      ]);
    } finally {
      clearInterval(timer);
    }
    if (Date.now() - last.at > 1000) sample();
    const total = (Date.now() - began) / 1000;
    process.stdout.write(
      `soak: ${(counts.queries / total).toFixed(0)} queries/s and ${(counts.tracks / total).toFixed(0)} tracks/s on average, ${counts.failed} answers other than 200; CSV: ${args.csv}\n`,
    );
  } finally {
    await server?.stop();
  }
}

let args: Args | 'help';
try {
  args = readArgs(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error && !('code' in error) ? error.message : describeArgumentError(error as Error & { code?: string }, FLAGS, 'Usage below.');
  process.stderr.write(`soak: ${message}\n${usage}`);
  process.exit(2);
}
if (args === 'help') process.stdout.write(usage);
else await soak(args);
