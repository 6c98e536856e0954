import { limitsReportSchema } from '../../contract/limits.js';
import type { Reply } from '../routing/route.js';
import { ok } from '../routing/route.js';
import { defineControlRoute } from './control-route.js';
import { INSPECTOR_HTML, INSPECTOR_SECURITY_HEADERS } from './inspector-page.js';
// Generated from src/inspector by `npm run build:inspector`: the core reads no file.
import { INSPECTOR_SCRIPT } from './inspector-bundle.js';

const text = (body: string, contentType: string): Reply => ({
  reply: true,
  status: 200,
  body: undefined,
  text: body,
  contentType,
  headers: INSPECTOR_SECURITY_HEADERS,
});

/**
 * The inspector: a page at `/__sim/ui` that polls the control plane (clock, limits, scenarios,
 * journal) and charts it, and `GET /__sim/limits`, the one read it needs that no other route
 * gives. uPlot's files (`/__sim/ui/assets/…`) are answered by the HTTP adapters, not here.
 */
export const inspectorRoutes = [
  defineControlRoute({
    method: 'GET',
    path: '/__sim/ui',
    summary: 'The inspector: decisions per second by rule, key quotas and in-flight counts, scenarios, the clock and its controls, the last requests (HTML).',
    responses: { 200: { description: 'An HTML page; its data comes from the JSON routes of /__sim' }, 308: { description: '/__sim/ui/ redirects to /__sim/ui' } },
    handle: (ctx) =>
      // The page's references are relative to /__sim/ui: with a trailing slash they would miss.
      ctx.request.path.endsWith('/')
        ? { reply: true, status: 308, body: undefined, text: '', headers: { Location: '../ui', 'Cache-Control': 'no-store' } }
        : text(INSPECTOR_HTML, 'text/html; charset=utf-8'),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__sim/ui/inspector.js',
    summary: "The inspector page's script (JavaScript).",
    responses: { 200: { description: 'JavaScript' } },
    handle: () => text(INSPECTOR_SCRIPT, 'text/javascript; charset=utf-8'),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__sim/limits',
    summary: "Every API key's quota and per-endpoint windows (used, remaining, next reset) and requests in flight, at the clock's instant; read-only, no secrets.",
    responses: { 200: { description: 'The windows and in-flight counts', schema: limitsReportSchema } },
    handle: async (ctx) => ok(await ctx.control.limits()),
  }),
];
