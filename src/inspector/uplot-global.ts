import type uPlot from 'uplot';

declare global {
  interface Window {
    /**
     * uPlot's browser build (`uPlot.iife.min.js`), loaded before the charts' script: from the
     * HTTP adapters under `/__sim/ui/assets/`, or inlined in the load report. Absent under
     * MSW, which has no file server.
     */
    uPlot?: typeof uPlot;
  }
}

/** The uPlot the page loaded, or undefined when it was not loaded. */
export function loadedUplot(): typeof uPlot | undefined {
  return typeof window.uPlot === 'function' ? window.uPlot : undefined;
}
