import { notFound } from '../errors.js';
import { defineControlRoute } from './control-route.js';

/** The media type of the Prometheus text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * `GET /__sim/metrics`: the snapshot, rendered by the renderer an HTTP adapter installed
 * (the Prometheus text format, made with prom-client). Without one (the core alone, MSW), a
 * 404 says where metrics are served.
 */
export const metricsRoutes = [
  defineControlRoute({
    method: 'GET',
    path: '/__sim/metrics',
    summary:
      'Prometheus metrics (text format 0.0.4): requests by outcome (admitted or the refusing rule), route and API key id; in flight per key and the cap; request latency; journal size and drops; the clock. Counters are per process.',
    responses: {
      200: { description: 'The Prometheus text exposition format, version 0.0.4', contentType: PROMETHEUS_CONTENT_TYPE },
      404: { description: 'No renderer: metrics are served by the HTTP server (analytics-sim serve, startServer, the express app)' },
    },
    handle: async (ctx) => {
      const render = ctx.control.metrics.renderer();
      if (!render) {
        return notFound(
          { kind: 'Metrics renderer', id: 'prometheus' },
          { hint: 'Metrics are rendered by the HTTP server: scrape /__sim/metrics of analytics-sim serve, startServer or the express app, or read sim.metrics.snapshot().' },
        );
      }
      const rendered = await render(await ctx.control.metrics.snapshot());
      return { reply: true, status: 200, body: undefined, text: rendered.text, contentType: rendered.contentType, headers: { 'Cache-Control': 'no-store' } };
    },
  }),
];
