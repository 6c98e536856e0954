/**
 * The longest stretch the event loop was held, as another request would have waited for it: a
 * `setImmediate` ticker that notes the longest gap between two of its turns.
 */
export interface LoopHoldWatch {
  /** Stops the ticker; the longest hold seen since the watch began, in ms. */
  stop(): number;
}

/** Starts watching the event loop's holds (the bench's long ranges, `npm run measure:costs`). */
export function watchLoopHolds(): LoopHoldWatch {
  let last = performance.now();
  let longest = 0;
  let ticker: NodeJS.Immediate;
  const tick = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    ticker = setImmediate(tick);
  };
  ticker = setImmediate(tick);
  return {
    stop() {
      clearImmediate(ticker);
      return Math.max(longest, performance.now() - last);
    },
  };
}
