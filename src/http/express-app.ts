import express, { type Express, type RequestHandler } from 'express';
import type { Simulator } from '../sim/simulator.js';
import { answerInspectorAsset } from './inspector-assets.js';
import { sendResponse } from './node-server.js';
import { prometheusMetricsOf } from './prometheus-metrics.js';
import { readBody, toSimRequest, type ReadBody } from './translate.js';

function alreadyRead(body: unknown): ReadBody {
  if (body === undefined || body === null) return { tooLarge: false };
  if (typeof body === 'string') return { body, tooLarge: false };
  if (Buffer.isBuffer(body)) return { body: body.toString('utf8'), tooLarge: false };
  return { body: JSON.stringify(body), tooLarge: false };
}

/**
 * Express middleware that answers every request with the simulator. Mount it anywhere:
 * paths are taken relative to the mount point, and the discovery documents (`/openapi.json`'s
 * `servers`, the API catalog, `/auth.md`) link under it. When a body parser ran first, its
 * result is used; otherwise the raw body is read (up to 1 MB). It times each answer for
 * `GET /__sim/metrics` and installs its Prometheus renderer. The client address of anonymous
 * limits is express's `req.ip`: the app's own `trust proxy` setting decides whether
 * `X-Forwarded-For` counts (by default it does not). A response the client has not taken
 * within `writeTimeoutMs` ends with its connection (see `sendResponse`); the request and
 * header timeouts belong to the app's server.
 */
export function simulatorMiddleware(simulator: Simulator, options: { writeTimeoutMs?: number } = {}): RequestHandler {
  const metrics = prometheusMetricsOf(simulator);
  return (req, res, next) => {
    // The inspector's chart library: files the core cannot read (src/http/inspector-assets.ts).
    if (answerInspectorAsset(req, res, req.url)) return;
    const started = performance.now();
    const read = req.readableEnded ? Promise.resolve(alreadyRead(req.body)) : readBody(req);
    read
      .then(async (body) => {
        if (body.aborted) {
          res.destroy();
          return;
        }
        // Paths are relative to the mount point; the mount point itself goes to the links of the discovery documents.
        const request = toSimRequest(req, body, req.url, req.ip ?? req.socket.remoteAddress ?? 'unknown');
        const response = await simulator.handle(req.baseUrl ? { ...request, basePath: req.baseUrl } : request, { holdSlot: true });
        sendResponse(
          res,
          response,
          req.method === 'HEAD',
          () => metrics.observe({ method: req.method, path: request.path }, response.status, (performance.now() - started) / 1000),
          options.writeTimeoutMs,
        );
      })
      .catch(next);
  };
}

/** An express app that is the simulator: for users who want to add their own middleware around it. */
export function createExpressApp(simulator: Simulator): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(simulatorMiddleware(simulator));
  return app;
}
