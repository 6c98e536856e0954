/** One file of the chart library the inspector loads, and where an adapter finds it. */
export interface InspectorAsset {
  /** The path the page requests, under `/__sim/ui/assets/`. */
  readonly path: string;
  /** The file in the installed `uplot` package, for `require.resolve`. */
  readonly module: string;
  readonly contentType: string;
}

/**
 * uPlot's script and style sheet, as the inspector page references them. The core cannot read
 * files, so it never answers these paths: the HTTP adapters (`src/http/inspector-assets.ts`)
 * read them once from the installed package and answer them themselves, and the load runner's
 * HTML report inlines them. Nothing of uPlot is copied into this repository.
 */
export const INSPECTOR_ASSETS = {
  script: { path: '/__sim/ui/assets/uPlot.iife.min.js', module: 'uplot/dist/uPlot.iife.min.js', contentType: 'text/javascript; charset=utf-8' },
  style: { path: '/__sim/ui/assets/uPlot.min.css', module: 'uplot/dist/uPlot.min.css', contentType: 'text/css; charset=utf-8' },
} as const satisfies Record<string, InspectorAsset>;
