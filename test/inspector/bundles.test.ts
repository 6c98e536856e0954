import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HTML_REPORT_SCRIPT } from '../../load/html-report-script.js';
import { INSPECTOR_SCRIPT } from '../../src/sim/control/inspector-bundle.js';
import { BUNDLES, bundleScript, inspectorModules } from '../../tools/inspector-bundles.js';

/**
 * The browser code under src/inspector reaches the page and the load report as generated,
 * committed modules (the core reads no file, and dist/ carries no bundler). These tests bundle
 * it again, in memory, and fail while a committed module differs: run `npm run build:inspector`.
 */
describe('the bundles of src/inspector', () => {
  it.each(BUNDLES.map((b) => [b.module]))('%s is what npm run build:inspector writes from the source as it stands', async (module) => {
    const fresh = (await inspectorModules()).find((m) => m.path === module);
    expect(fresh, module).toBeDefined();
    const committed = readFileSync(new URL(`../../${module}`, import.meta.url), 'utf8');
    expect(committed === fresh?.text, `${module} is stale: run npm run build:inspector and commit it`).toBe(true);
  });

  it('export the scripts esbuild makes, character for character', async () => {
    const [page, report] = await Promise.all(BUNDLES.map((b) => bundleScript(b.entry)));
    expect(INSPECTOR_SCRIPT).toBe(page);
    expect(HTML_REPORT_SCRIPT).toBe(report);
  });

  it('carry the shared chart code in both scripts, and nothing of the core, zod or uPlot', () => {
    for (const script of [INSPECTOR_SCRIPT, HTML_REPORT_SCRIPT]) {
      expect(script).toContain('// src/inspector/charts.ts');
      expect(script.match(/^ {2}\/\/ (\S+)$/gm)?.every((line) => line.startsWith('  // src/inspector/'))).toBe(true);
      expect(script).not.toMatch(/\brequire\(|\bimport\(|innerHTML|\beval\(/);
    }
  });
});
