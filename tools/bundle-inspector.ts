/**
 * `npm run build:inspector`: bundles the browser code under src/inspector into the modules
 * that carry it as text (tools/inspector-bundles.ts lists them). Run it after changing
 * src/inspector, and commit what it writes.
 */
import { writeFileSync } from 'node:fs';
import { inspectorModules } from './inspector-bundles.js';

for (const { path, text } of await inspectorModules()) {
  writeFileSync(new URL(`../${path}`, import.meta.url), text);
  process.stdout.write(`wrote ${path}\n`);
}
