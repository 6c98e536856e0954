import { describe, expect, it } from 'vitest';
import { startedByNpm, watchParent, type ParentWatchHost } from '../../src/cli/parent-watch.js';

/** A parent pid the test sets, and the ticks of the watch, run when the test says. */
function fakeHost(ppid: number): ParentWatchHost & { ppidNow: number; tick(): void; stopped: boolean } {
  let tick = (): void => undefined;
  const host = {
    ppidNow: ppid,
    stopped: false,
    ppid: () => host.ppidNow,
    every: (_ms: number, run: () => void) => {
      tick = run;
      return () => {
        host.stopped = true;
      };
    },
    tick: () => tick(),
  };
  return host;
}

describe('the parent watch of a server started through npm', () => {
  it('watches only a server npm started (npx, npm start, an npm script), not one started directly', () => {
    expect(startedByNpm({ npm_lifecycle_event: 'npx' })).toBe(true);
    expect(startedByNpm({ npm_lifecycle_event: 'start' })).toBe(true);
    expect(startedByNpm({})).toBe(false);
    expect(startedByNpm({ npm_lifecycle_event: '' })).toBe(false);
  });

  it('says nothing while the parent is the one the server started with, and once when it is another', () => {
    const host = fakeHost(100);
    let orphaned = 0;
    watchParent(() => (orphaned += 1), host);
    host.tick();
    host.tick();
    expect(orphaned).toBe(0);
    host.ppidNow = 1;
    host.tick();
    host.tick();
    expect(orphaned).toBe(1);
    expect(host.stopped).toBe(true);
  });

  it('says nothing once stopped', () => {
    const host = fakeHost(100);
    let orphaned = 0;
    const stop = watchParent(() => (orphaned += 1), host);
    stop();
    host.ppidNow = 1;
    host.tick();
    expect(orphaned).toBe(0);
    expect(host.stopped).toBe(true);
  });
});
