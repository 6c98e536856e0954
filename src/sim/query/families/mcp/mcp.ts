import { bucketLabels, createBucketer, formatDateTime } from '../../engine/dates.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { mcpToolCalls } from '../../../model/derived/mcp-calls.js';
import {
  byCount,
  emptyMcpGroup,
  addMcpCall,
  groupMcpCalls,
  mcpCallsSteps,
  CALL_WORK,
  mcpErrorRate,
  mcpLastSeen,
  mcpQuantile,
  mcpTracked,
  topK,
} from './mcp-calls-scan.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import catalogue from './mcp-catalogue.json' with { type: 'json' };

/**
 * The mcp family: its types read analytics.mcp_tool_calls, deriving mcpToolCalls on each day of
 * their range; their fields and meta are in mcp-catalogue.json. mcp_summary's `tracked` says
 * whether the scope ever received a call, whatever the range: their cached rows key on the
 * calls of every day (`readsEveryDay`).
 */
const FAMILY: QueryFamilySpec = {
  name: 'mcp',
  table: 'analytics.mcp_tool_calls',
  derives: [mcpToolCalls],
  readsEveryDay: true,
  catalogue: readCatalogue('mcp', catalogue),
};

/** The live default LIMIT of the mcp lists. */
const MCP_LIST_LIMIT = 100;

/** The distinct values of a column, sorted, at most `max`. */
function distinctValues(values: Iterable<string>, max: number): string[] {
  return [...new Set(values)].filter((v) => v !== '').sort().slice(0, max);
}

/** One row of totals over every matching call (always one row, zeros and a null last_call without calls). */
function* mcpSummaryRows(ctx: RunContext): PassSteps<Row[]> {
  const calls = yield* mcpCallsSteps(ctx);
  // Totals read each call again (sets, quantiles, distinct values): a piece of their own when long.
  yield calls.length * CALL_WORK;
  const all = emptyMcpGroup();
  for (const call of calls) addMcpCall(all, call);
  return [
    {
      calls: all.calls,
      errors: all.errors,
      error_rate: mcpErrorRate(all),
      p50_ms: mcpQuantile(all, 50),
      p95_ms: mcpQuantile(all, 95),
      tools: all.tools.size,
      clients: all.clients.size,
      sessions: all.sessions.size,
      servers: distinctValues(calls.map((c) => c.serverName), 20),
      environments: distinctValues(calls.map((c) => c.environment), 10),
      websites: distinctValues(calls.map((c) => c.websiteId), 50),
      last_call: all.calls > 0 ? formatDateTime(all.lastMs) : null,
      tracked: mcpTracked(ctx) ? 1 : 0,
    },
  ];
}

/** Calls and failed calls per bucket, every bucket from the start to the bucket of now (or the end) filled. */
function* mcpCallsSeriesRows(ctx: RunContext): PassSteps<Row[]> {
  const bucket = createBucketer(ctx.unit, ctx.timezone);
  const byBucket = new Map<string, { calls: number; errors: number }>();
  const calls = yield* mcpCallsSteps(ctx);
  // Each call is bucketed: its work counts before it.
  yield calls.length;
  for (const call of calls) {
    const label = bucket(call.timeMs);
    const totals = byBucket.get(label) ?? { calls: 0, errors: 0 };
    totals.calls++;
    if (call.isError) totals.errors++;
    byBucket.set(label, totals);
  }
  const labels = ctx.toMs < ctx.fromMs ? [] : bucketLabels(ctx.unit, ctx.timezone, ctx.fromMs, ctx.toMs);
  return labels.map((date) => ({ date, calls: byBucket.get(date)?.calls ?? 0, errors: byBucket.get(date)?.errors ?? 0 }));
}

/** One row per tool, most called first. */
function* mcpToolsRows(ctx: RunContext): PassSteps<Row[]> {
  const calls = yield* mcpCallsSteps(ctx);
  // Grouping reads each call again (sets, quantiles): a piece of its own when long.
  yield calls.length * CALL_WORK;
  const groups = [...groupMcpCalls(calls, (c) => c.tool)].sort(byCount((g) => g.calls));
  return groups.slice(0, ctx.limit ?? MCP_LIST_LIMIT).map(([tool, g]) => ({
    tool,
    calls: g.calls,
    errors: g.errors,
    error_rate: mcpErrorRate(g),
    p50_ms: mcpQuantile(g, 50),
    p95_ms: mcpQuantile(g, 95),
    avg_output_chars: g.calls > 0 ? Math.round(g.outputChars / g.calls) : 0,
    sessions: g.sessions.size,
    clients: topK(g.clients, 3),
    last_called: mcpLastSeen(g),
  }));
}

/** One row per client product ('' when unidentified), most calls first. */
function* mcpClientsRows(ctx: RunContext): PassSteps<Row[]> {
  const calls = yield* mcpCallsSteps(ctx);
  // Grouping reads each call again (sets, quantiles): a piece of its own when long.
  yield calls.length * CALL_WORK;
  const groups = [...groupMcpCalls(calls, (c) => c.client)].sort(byCount((g) => g.calls));
  return groups.slice(0, ctx.limit ?? MCP_LIST_LIMIT).map(([client, g]) => ({
    client,
    calls: g.calls,
    error_rate: mcpErrorRate(g),
    p95_ms: mcpQuantile(g, 95),
    tools: g.tools.size,
    sessions: g.sessions.size,
    versions: topK(g.versions, 3),
    user_agent: g.userAgent,
    last_seen: mcpLastSeen(g),
  }));
}

/** Failed calls grouped by tool and message, most frequent first. */
function* mcpErrorsRows(ctx: RunContext): PassSteps<Row[]> {
  const failed = (yield* mcpCallsSteps(ctx)).filter((c) => c.isError);
  // Grouping reads each failed call again.
  yield failed.length * CALL_WORK;
  const groups = [...groupMcpCalls(failed, (c) => `${c.tool}\n${c.error}`)].sort(byCount((g) => g.calls));
  return groups.slice(0, ctx.limit ?? MCP_LIST_LIMIT).map(([key, g]) => {
    const [tool = '', error = ''] = key.split('\n');
    return { tool, error, occurrences: g.calls, sessions: g.sessions.size, clients: topK(g.clients, 3), last_seen: mcpLastSeen(g) };
  });
}


/** What every mcp declaration below shares. */
const defineMcpType = declareUnder({
  family: FAMILY,
  filters: ["client", "tool", "server_name", "environment", "website_id"],
  customizable: false,
  paging: 'self',
});

/** The live mcp builders. */
export const mcpTypes: QueryTypeDefinition[] = [
  defineMcpType({
    name: 'mcp_summary',
    steps: mcpSummaryRows,
  }),
  defineMcpType({
    name: 'mcp_calls_series',
    steps: mcpCallsSeriesRows,
  }),
  defineMcpType({
    name: 'mcp_tools',
    steps: mcpToolsRows,
  }),
  defineMcpType({
    name: 'mcp_clients',
    steps: mcpClientsRows,
  }),
  defineMcpType({
    name: 'mcp_errors',
    steps: mcpErrorsRows,
  }),
];
