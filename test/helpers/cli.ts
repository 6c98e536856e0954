import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root, where the CLI runs. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The CLI bundled from the source before the tests (test/global-setup.ts), relative to
 * {@link REPO_ROOT}: one directory down, like dist/, so it finds package.json as dist/ does.
 */
export const CLI_ENTRY = '.test-dist/cli/main.js';

/** The command line that starts the CLI from the source as it stands: `[node, entry]`. */
export const CLI_FROM_SOURCE: readonly string[] = [process.execPath, CLI_ENTRY];

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running `analytics-sim` process started from source. */
export interface CliProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout; rejects if the process exits first or the guard fires. */
  waitForStdout(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<Exit>;
  /** Kills the process (SIGKILL) if it is still running. */
  kill(): void;
}

/** How {@link startProcess} starts a command. */
export interface StartOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Kill the child (SIGKILL) after this many ms whatever happens (default 15 s). */
  readonly guardMs?: number;
  /** Start the child in its own process group (`process.kill(-pid)` reaches all it spawned). */
  readonly detached?: boolean;
  /** The working directory (default: the repository root). */
  readonly cwd?: string;
}

/**
 * Starts the CLI from source. A guard kills the child after `guardMs` whatever happens, so a
 * hung process can never outlive the test; nothing here sleeps.
 */
export function startCli(args: readonly string[], options: StartOptions = {}): CliProcess {
  return startProcess(process.execPath, [CLI_ENTRY, ...args], options);
}

/** Starts any command in the repository root, watched as {@link startCli} watches the CLI. */
export function startProcess(command: string, args: readonly string[], options: StartOptions = {}): CliProcess {
  const child = spawn(command, [...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let out = '';
  let err = '';
  let closed = false;
  const listeners = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), options.guardMs ?? 15_000);
  const exited = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => {
      closed = true;
      clearTimeout(guard);
      for (const listener of listeners) listener();
      resolve({ code, signal });
    });
  });

  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    waitForStdout(pattern) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(out);
          if (match) {
            listeners.delete(check);
            resolve(match);
          } else if (closed) {
            listeners.delete(check);
            reject(new Error(`process exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}; stdout: ${out}; stderr: ${err}`));
          }
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Runs the CLI to completion and returns its exit and output. */
export async function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; guardMs?: number } = {}): Promise<Exit & { stdout: string; stderr: string }> {
  const cli = startCli(args, options);
  const exit = await cli.exited;
  return { ...exit, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** True while any process of the group is alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Polls `check` every 50 ms until it holds or `ms` have passed; true when it held. A bound on
 * how long to wait for a process to do something, never what decides a test's outcome.
 */
export async function holdsWithin(ms: number, check: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
