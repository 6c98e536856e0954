import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { INSPECTOR_ASSETS, type InspectorAsset } from '../sim/control/inspector-assets.js';

/** A week: the files change only when the installed uplot does. */
const CACHE_CONTROL = 'public, max-age=604800';

interface LoadedAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

let loaded: ReadonlyMap<string, LoadedAsset> | undefined;

/**
 * uPlot's files by request path, read once from the installed `uplot` package (never copied
 * into the repository). A file that cannot be resolved is left out: its path then falls through
 * to the core, which answers 404, and the page shows its tables without the chart.
 */
function assets(): ReadonlyMap<string, LoadedAsset> {
  if (loaded) return loaded;
  const packages = createRequire(import.meta.url);
  const map = new Map<string, LoadedAsset>();
  for (const asset of Object.values(INSPECTOR_ASSETS) as InspectorAsset[]) {
    try {
      map.set(asset.path, { body: readFileSync(packages.resolve(asset.module)), contentType: asset.contentType });
    } catch {
      // Not installed: leave it to the core's 404.
    }
  }
  loaded = map;
  return map;
}

/**
 * Answers a GET or HEAD of one of the inspector's chart files (`/__sim/ui/assets/…`, `path`
 * relative to the mount point, query string ignored) and returns true; returns false for
 * anything else, which the adapter hands to the core as usual.
 */
export function answerInspectorAsset(req: IncomingMessage, res: ServerResponse, path: string | undefined): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const bare = (path ?? '/').split('?')[0] as string;
  if (!bare.startsWith('/__sim/ui/assets/')) return false;
  const asset = assets().get(bare);
  if (!asset) return false;
  req.resume();
  res.writeHead(200, {
    'Content-Type': asset.contentType,
    'Content-Length': String(asset.body.length),
    'Cache-Control': CACHE_CONTROL,
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : asset.body);
  return true;
}
