import cluster, { type Worker } from 'node:cluster';

/**
 * `analytics-sim serve --workers N`: the primary process forks N workers with `node:cluster`.
 * Each worker runs the same command line (same argv, environment and working directory, hence
 * the same options) and the same serve path, on the same port (cluster shares it, so `--port 0`
 * gives every worker one random port). Workers print nothing of their own: they tell the
 * primary over IPC when they listen or why they could not start, and the primary prints one
 * banner, or one error.
 */

/** What a worker tells the primary over IPC. */
export type WorkerMessage =
  | { readonly type: 'analytics-sim:ready'; readonly ready: true; readonly url: string; readonly banner: readonly string[] }
  | { readonly type: 'analytics-sim:failed'; readonly message: string; readonly exitCode: number };

/** Delay before a replacement that could not start is tried again (the store's Retry-After). */
const RETRY_REPLACEMENT_MS = 5_000;

/** Time workers have to stop after SIGTERM before the primary kills them. */
const STOP_GRACE_MS = 10_000;

/** The banner line that says how many processes serve, inserted after the store line. */
export function describeWorkersLine(pids: readonly number[]): string {
  return `  workers: ${pids.length} processes (pids ${pids.join(', ')}) sharing the store`;
}

/** True in a process forked by {@link runPrimary}. */
export function isWorkerProcess(): boolean {
  return cluster.isWorker;
}

/** Worker side: the server listens at `url`; `banner` is what a single process would print. */
export function reportReady(url: string, banner: readonly string[]): void {
  const message: WorkerMessage = { type: 'analytics-sim:ready', ready: true, url, banner };
  process.send?.(message);
}

/**
 * Worker side: this worker cannot start (`message` is the one line a single process would
 * print); resolves once the primary has it, and the caller then exits with `exitCode`.
 */
export function reportFailure(message: string, exitCode: number): Promise<void> {
  const report: WorkerMessage = { type: 'analytics-sim:failed', message, exitCode };
  return new Promise((resolve) => {
    if (!process.send || !process.connected) {
      resolve();
      return;
    }
    process.send(report, undefined, {}, () => resolve());
  });
}

function isWorkerMessage(value: unknown): value is WorkerMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'analytics-sim:ready' || type === 'analytics-sim:failed';
}

/** "signal SIGKILL" or "code 3". */
function describeExit(code: number | null, signal: string | null): string {
  return signal ? `signal ${signal}` : `code ${code ?? 0}`;
}

/** The lines the primary writes. */
export interface PrimaryOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * Primary side: forks `count` workers and supervises them until SIGTERM or SIGINT.
 *
 * - Once every worker listens, prints one banner (the first worker's, with the workers line
 *   after the line starting with `  store:`).
 * - Before that, a worker that fails (or exits) makes the primary print that one line, stop the
 *   others and resolve with the worker's exit code (1 when it gave none): no restart loop.
 * - After that, a worker that dies is replaced, with one line on stderr naming its pid and its
 *   signal or code; a replacement that cannot start is tried again every 5 s.
 * - SIGTERM or SIGINT stops every worker (SIGTERM; SIGKILL after 10 s) and resolves with 0.
 *
 * Resolves with the exit code once no worker is left.
 */
export function runPrimary(count: number, output: PrimaryOutput): Promise<number> {
  let phase: 'starting' | 'running' | 'stopping' = 'starting';
  let exitCode = 0;
  const live = new Set<Worker>();
  const listening = new Map<Worker, readonly string[]>();
  const failed = new Set<Worker>();
  const timers = new Set<NodeJS.Timeout>();
  let finish: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });

  const settleIfEmpty = (): void => {
    if (phase !== 'stopping' || live.size > 0) return;
    for (const timer of timers) clearTimeout(timer);
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    cluster.off('message', onMessage);
    cluster.off('exit', onExit);
    finish(exitCode);
  };

  const stop = (code: number): void => {
    if (phase === 'stopping') return;
    phase = 'stopping';
    exitCode = code;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    for (const worker of live) worker.process.kill('SIGTERM');
    if (live.size > 0) {
      const kill = setTimeout(() => {
        for (const worker of live) worker.process.kill('SIGKILL');
      }, STOP_GRACE_MS);
      timers.add(kill);
    }
    settleIfEmpty();
  };

  const fork = (): void => {
    live.add(cluster.fork());
  };

  const retryLater = (): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (phase === 'running') fork();
    }, RETRY_REPLACEMENT_MS);
    timers.add(timer);
  };

  const onMessage = (worker: Worker, message: unknown): void => {
    if (!isWorkerMessage(message) || phase === 'stopping') return;
    if (message.type === 'analytics-sim:failed') {
      failed.add(worker);
      if (phase === 'starting') {
        output.stderr(`analytics-sim: ${message.message}\n`);
        stop(message.exitCode || 1);
      } else {
        output.stderr(`analytics-sim: worker ${worker.process.pid} could not start (${message.message}); trying again in ${RETRY_REPLACEMENT_MS / 1000} s\n`);
      }
      return;
    }
    listening.set(worker, message.banner);
    if (phase !== 'starting' || listening.size < count) return;
    phase = 'running';
    const pids = [...listening.keys()].map((w) => w.process.pid ?? 0);
    const banner = [...message.banner];
    const storeLine = banner.findIndex((line) => line.startsWith('  store:'));
    banner.splice(storeLine >= 0 ? storeLine + 1 : Math.min(2, banner.length), 0, describeWorkersLine(pids));
    output.stdout(`${banner.join('\n')}${banner.at(-1) === '' ? '' : '\n'}`);
  };

  const onExit = (worker: Worker, code: number | null, signal: string | null): void => {
    live.delete(worker);
    const wasListening = listening.delete(worker);
    const hadFailed = failed.delete(worker);
    if (phase === 'stopping') {
      settleIfEmpty();
      return;
    }
    if (phase === 'starting') {
      if (hadFailed) return;
      output.stderr(`analytics-sim: worker ${worker.process.pid} exited (${describeExit(code, signal)}) before it was listening\n`);
      stop(1);
      return;
    }
    if (hadFailed) {
      retryLater();
      return;
    }
    if (!wasListening) {
      output.stderr(`analytics-sim: worker ${worker.process.pid} exited (${describeExit(code, signal)}) before it was listening; trying again in ${RETRY_REPLACEMENT_MS / 1000} s\n`);
      retryLater();
      return;
    }
    output.stderr(`analytics-sim: worker ${worker.process.pid} died (${describeExit(code, signal)}); starting another\n`);
    fork();
  };

  // Ctrl-C under `npm start` delivers SIGINT twice; a repeat while stopping changes nothing.
  const onSignal = (): void => stop(0);
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  cluster.on('message', onMessage);
  cluster.on('exit', onExit);
  for (let i = 0; i < count; i += 1) fork();
  return done;
}
