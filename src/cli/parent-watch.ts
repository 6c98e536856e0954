/**
 * A server started through npm outlives no process of npm's.
 *
 * `npx analytics-sim serve` runs the command as npm's grandchild: npm spawns `sh -c
 * analytics-sim serve`, and the shell forks the server. A SIGTERM sent to npx (`kill <pid>`) is
 * forwarded by npm to the shell only, which dies of it; the server is left running, adopted by
 * init, holding its port. No signal reaches it, and it cannot be told of its parent's death
 * (Linux's PR_SET_PDEATHSIG is not within node's reach), so it looks: when the process that
 * started it is no longer its parent, it has been orphaned, and it stops as a SIGTERM stops it.
 *
 * Only under npm (`npm_lifecycle_event` in the environment: npx, `npm start`, any npm script):
 * a server started directly (`analytics-sim serve &` from a script, `nohup`, a service manager)
 * may outlive what started it on purpose.
 */

/** How often the parent is looked at; the port is free within about this long after npx dies. */
export const PARENT_WATCH_INTERVAL_MS = 200;

/** True when npm started this process, directly or through a shell (npx, `npm start`, an npm script). */
export function startedByNpm(env: NodeJS.ProcessEnv): boolean {
  return env.npm_lifecycle_event !== undefined && env.npm_lifecycle_event !== '';
}

/** What {@link watchParent} reads and schedules with (node's, in the command). */
export interface ParentWatchHost {
  /** This process's parent pid now. */
  ppid(): number;
  /** Calls `tick` every `ms` without keeping the process alive; returns how to stop. */
  every(ms: number, tick: () => void): () => void;
}

/** Node's: `process.ppid`, and an unref'd interval. */
export const NODE_PARENT_WATCH_HOST: ParentWatchHost = {
  ppid: () => process.ppid,
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/**
 * Calls `orphaned` once, at the first look that finds a parent other than the one this process
 * had when the watch began, then stops looking. Returns how to stop the watch.
 */
export function watchParent(orphaned: () => void, host: ParentWatchHost = NODE_PARENT_WATCH_HOST, intervalMs = PARENT_WATCH_INTERVAL_MS): () => void {
  const parent = host.ppid();
  let cancel = (): void => undefined;
  let done = false;
  cancel = host.every(intervalMs, () => {
    if (done || host.ppid() === parent) return;
    done = true;
    cancel();
    orphaned();
  });
  return () => {
    done = true;
    cancel();
  };
}
