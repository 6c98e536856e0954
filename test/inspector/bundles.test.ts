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
    expect(INSPECTOR_SCRIPT).toBe(page?.text);
    expect(HTML_REPORT_SCRIPT).toBe(report?.text);
  });

  it('carry the shared chart code in both scripts, and nothing of the core, zod or uPlot', async () => {
    for (const bundle of await Promise.all(BUNDLES.map((b) => bundleScript(b.entry)))) {
      expect(bundle.inputs).toContain('src/inspector/charts.ts');
      expect(bundle.inputs.filter((input) => !input.startsWith('src/inspector/'))).toEqual([]);
      expect(bundle.text).not.toMatch(/\brequire\(|\bimport\(|innerHTML|\beval\(/);
    }
  });

  it('ship minified: a few lines, well under the size of the source', () => {
    for (const script of [INSPECTOR_SCRIPT, HTML_REPORT_SCRIPT]) expect(script.split('\n').length).toBeLessThan(10);
    expect(INSPECTOR_SCRIPT.length).toBeLessThan(20_000);
  });
});
