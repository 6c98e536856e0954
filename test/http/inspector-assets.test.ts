import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorMiddleware } from '../../src/http/express-app.js';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { freshSimulator } from '../helpers/sim.js';
import { fetchAnswer, listen, type Listening } from '../helpers/wire.js';

const installed = (module: string): string => readFileSync(createRequire(import.meta.url).resolve(module), 'utf8');

describe('the inspector’s chart library over HTTP', () => {
  let node: RunningServer;
  let mounted: Listening;

  beforeAll(async () => {
    node = await startServer(freshSimulator(), { port: 0 });
    const app = express();
    app.use('/sim', simulatorMiddleware(freshSimulator()));
    mounted = await listen(app);
  });

  afterAll(async () => {
    await Promise.all([node.close(), mounted.close()]);
  });

  it('is the installed uplot package’s files, answered by the node server with a long cache lifetime', async () => {
    const script = await fetchAnswer(`${node.url}/__sim/ui/assets/uPlot.iife.min.js?v=1`);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=604800');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.text).toBe(installed('uplot/dist/uPlot.iife.min.js'));
    const style = await fetchAnswer(`${node.url}/__sim/ui/assets/uPlot.min.css`);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(style.text).toBe(installed('uplot/dist/uPlot.min.css'));
  });

  it('answers HEAD without a body, and leaves other methods and other files to the core', async () => {
    const head = await fetchAnswer(`${node.url}/__sim/ui/assets/uPlot.min.css`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect((await fetchAnswer(`${node.url}/__sim/ui/assets/uPlot.min.css`, { method: 'POST' })).status).toBe(404);
    // Exactly the two files: nothing else of the package, and no path is resolved on disk.
    for (const path of ['uPlot.esm.js', '..%2Fpackage.json', '%2E%2E%2F%2E%2E%2Fpackage.json']) {
      const other = await fetchAnswer(`${node.url}/__sim/ui/assets/${path}`);
      expect(other.status).toBe(404);
      expect(other.json).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('follows the express middleware to its mount point, with the page and its script', async () => {
    const page = await fetchAnswer(`${mounted.url}/sim/__sim/ui`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    // The page's references are relative: from /sim/__sim/ui they resolve under the mount point.
    for (const ref of ['ui/inspector.js', 'ui/assets/uPlot.iife.min.js', 'ui/assets/uPlot.min.css']) {
      expect(page.text).toContain(`"${ref}"`);
      const answer = await fetchAnswer(new URL(ref, `${mounted.url}/sim/__sim/ui`).toString());
      expect(answer.status).toBe(200);
    }
  });
});
