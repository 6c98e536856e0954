import { MCP_CLIENTS, MCP_ENVIRONMENTS, MCP_ERRORS, MCP_TOOLS, mcpServerNames, mcpToolCalls, mcpTrackingSince } from '../../../model/derived/mcp-calls.js';
import { DAY_MS } from '../../../model/world.js';
import { organizationOwner } from '../../../ingest/event-store.js';
import { MCP_CALLS, type IngestedMcpCall } from '../../../ingest/mcp-calls.js';
import { percentile } from '../../readers/aggregate.js';
import { formatDateTime } from '../../engine/dates.js';
import type { RunContext } from '../../engine/definition.js';
import { ownersOf } from '../../engine/scope-owners.js';
import { passesFilters, type FilterPlan } from '../../engine/filters.js';
import { createFieldReader, type FieldReaders } from '../../readers/record-filters.js';
import { GENERATED_RECORD_WORK, YIELD_RECORDS, type PassSteps } from '../../engine/pass-steps.js';

/** The filter fields of the mcp builders: they test the calls themselves. */
const MCP_CALL_FIELDS: FieldReaders<McpCall> = {
  client: (call) => call.client,
  tool: (call) => call.tool,
  server_name: (call) => call.serverName,
  environment: (call) => call.environment,
  website_id: (call) => call.websiteId,
};
const fieldOf = createFieldReader(MCP_CALL_FIELDS);

/**
 * What a call read counts for, in records read: making its {@link McpCall} (its user agent and
 * the garbage collected after it included) costs about four times a session sample's scan.
 */
export const CALL_WORK = 4;

/** One tool call, as the mcp types read it (the live `mcp_spans` row). */
export interface McpCall {
  readonly timeMs: number;
  readonly websiteId: string;
  readonly tool: string;
  readonly client: string;
  readonly clientVersion: string;
  readonly userAgent: string;
  readonly sessionId: string;
  readonly serverName: string;
  readonly environment: string;
  readonly isError: boolean;
  readonly error: string;
  readonly durationMs: number;
  readonly outputChars: number;
}

/** A call `POST /mcp` received, as the mcp types read it ('' for the website of an organization's own call). */
function ingestedCall(call: IngestedMcpCall): McpCall {
  return {
    timeMs: call.timestamp,
    websiteId: call.websiteId ?? '',
    tool: call.tool,
    client: call.client,
    clientVersion: call.clientVersion,
    userAgent: call.userAgent,
    sessionId: call.sessionId,
    serverName: call.serverName,
    environment: call.environment,
    isError: call.isError,
    error: call.error,
    durationMs: call.durationMs,
    outputChars: call.outputChars,
  };
}

/**
 * Every tool call of the scope's websites (one website, or all of an organization's, whose own
 * calls sent without a website come too) within [ctx.fromMs, ctx.toMs] that passes the request's
 * filters on client, tool, server_name, environment and website_id; other filter fields do not
 * apply to tool calls. Generated calls and calls `POST /mcp` received add up alike, each one
 * call. In a fixed order: website (then the organization's own), day, generated calls, then
 * received ones in arrival order. In pieces: yields the calls read, a few website-days at a time,
 * and the session samples of a day whose calls it derived again ({@link PassSteps}).
 */
export function* mcpCallsSteps(ctx: RunContext): PassSteps<McpCall[]> {
  const calls: McpCall[] = [];
  if (ctx.scope.kind !== 'websites' || ctx.toMs < ctx.fromMs) return calls;
  const plan: FilterPlan = { ...ctx.filters, tests: ctx.filters.tests.filter((t) => Object.hasOwn(MCP_CALL_FIELDS, t.field)) };
  const firstDay = Math.floor(ctx.fromMs / DAY_MS);
  const lastDay = Math.floor(ctx.toMs / DAY_MS);
  const keep = (call: McpCall): void => {
    if (call.timeMs < ctx.fromMs || call.timeMs > ctx.toMs) return;
    if (plan.tests.length > 0 && !passesFilters(plan, (field) => fieldOf(call, field))) return;
    calls.push(call);
  };
  let unreported = 0;
  const received = (owner: string, day: number): void => {
    for (const call of ctx.ingested.onDay(MCP_CALLS, owner, day)) {
      keep(ingestedCall(call));
      unreported += CALL_WORK;
    }
  };
  for (const website of ctx.scope.websites) {
    const servers = mcpServerNames(website);
    for (let day = firstDay; day <= lastDay; day++) {
      // The calls of a day not kept are derived again, from its sessions generated again unless kept.
      const generated = ctx.traffic.generatedWork();
      const batch = ctx.traffic.derived(mcpToolCalls, website, day);
      unreported += (ctx.traffic.generatedWork() - generated) * GENERATED_RECORD_WORK;
      for (let k = 0; k < batch.count; k++) {
        const timeMs = batch.timeMs[k] as number;
        if (timeMs < ctx.fromMs || timeMs > ctx.toMs) continue;
        const client = MCP_CLIENTS[batch.client[k] as number];
        if (!client) continue;
        const version = client.versions[batch.version[k] as number] ?? '';
        const call: McpCall = {
          timeMs,
          websiteId: website.id,
          tool: MCP_TOOLS[batch.tool[k] as number]?.name ?? '',
          client: client.name,
          clientVersion: version,
          userAgent: client.userAgent(version),
          sessionId: batch.session[k] ?? '',
          serverName: servers[batch.server[k] as number] ?? '',
          environment: MCP_ENVIRONMENTS[batch.environment[k] as number] ?? '',
          isError: batch.isError[k] === 1,
          error: batch.isError[k] === 1 ? (MCP_ERRORS[batch.error[k] as number] ?? '') : '',
          durationMs: batch.durationMs[k] as number,
          outputChars: batch.outputChars[k] as number,
        };
        if (plan.tests.length > 0 && !passesFilters(plan, (field) => fieldOf(call, field))) continue;
        calls.push(call);
      }
      received(website.id, day);
      unreported += batch.count * CALL_WORK;
      if (unreported >= YIELD_RECORDS) {
        yield unreported;
        unreported = 0;
      }
    }
  }
  if (ctx.scope.organizationId !== undefined) {
    const owner = organizationOwner(ctx.scope.organizationId);
    if (ctx.ingested.holds(MCP_CALLS, owner)) {
      for (let day = firstDay; day <= lastDay; day++) {
        received(owner, day);
        if (unreported >= YIELD_RECORDS) {
          yield unreported;
          unreported = 0;
        }
      }
    }
  }
  if (unreported > 0) yield unreported;
  return calls;
}

/**
 * True when any website of the scope (or, for an organization scope, the organization itself)
 * has ever recorded a tool call, generated or received, whatever the dates and filters.
 */
export function mcpTracked(ctx: RunContext): boolean {
  if (ctx.scope.kind !== 'websites') return false;
  if (ownersOf(ctx.scope).some((owner) => ctx.ingested.holds(MCP_CALLS, owner))) return true;
  return ctx.scope.websites.some((website) => {
    const since = mcpTrackingSince(ctx.traffic.seedHash, website);
    return since !== null && since <= ctx.now;
  });
}

/** Totals of a group of calls, with the helpers the mcp rows share. */
export interface McpGroup {
  calls: number;
  errors: number;
  readonly durations: number[];
  outputChars: number;
  readonly sessions: Set<string>;
  readonly tools: Set<string>;
  /** Calls per non-empty client, in first-seen order. */
  readonly clients: Map<string, number>;
  /** Calls per non-empty client version, in first-seen order. */
  readonly versions: Map<string, number>;
  userAgent: string;
  lastMs: number;
}

/** An empty {@link McpGroup}. */
export function emptyMcpGroup(): McpGroup {
  return { calls: 0, errors: 0, durations: [], outputChars: 0, sessions: new Set(), tools: new Set(), clients: new Map(), versions: new Map(), userAgent: '', lastMs: -1 };
}

/** Adds one call to a group. */
export function addMcpCall(group: McpGroup, call: McpCall): void {
  group.calls++;
  if (call.isError) group.errors++;
  group.durations.push(call.durationMs);
  group.outputChars += call.outputChars;
  if (call.sessionId !== '') group.sessions.add(call.sessionId);
  group.tools.add(call.tool);
  if (call.client !== '') group.clients.set(call.client, (group.clients.get(call.client) ?? 0) + 1);
  if (call.clientVersion !== '') group.versions.set(call.clientVersion, (group.versions.get(call.clientVersion) ?? 0) + 1);
  if (group.userAgent === '' && call.userAgent !== '') group.userAgent = call.userAgent;
  if (call.timeMs > group.lastMs) group.lastMs = call.timeMs;
}

/** Groups calls by a key, in first-seen order. */
export function groupMcpCalls(calls: readonly McpCall[], keyOf: (call: McpCall) => string): Map<string, McpGroup> {
  const groups = new Map<string, McpGroup>();
  for (const call of calls) {
    const key = keyOf(call);
    let group = groups.get(key);
    if (!group) {
      group = emptyMcpGroup();
      groups.set(key, group);
    }
    addMcpCall(group, call);
  }
  return groups;
}

/** The error rate in percent, one decimal; 0 without calls. */
export function mcpErrorRate(group: Pick<McpGroup, 'calls' | 'errors'>): number {
  return group.calls > 0 ? Math.round((group.errors / group.calls) * 1000) / 10 : 0;
}

/** A duration quantile (0–100) of a group, rounded to whole ms. */
export function mcpQuantile(group: Pick<McpGroup, 'durations'>, p: number): number {
  return Math.round(percentile(group.durations, p));
}

/** The `k` most frequent keys of a count map, most frequent first, ties by name. */
export function topK(counts: ReadonlyMap<string, number>, k: number): string[] {
  return [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).slice(0, k).map(([name]) => name);
}

/** The last call time of a group as a DateTime. */
export function mcpLastSeen(group: Pick<McpGroup, 'lastMs'>): string {
  return formatDateTime(group.lastMs);
}

/** Orders groups by a count descending, ties by key. */
export function byCount<T>(count: (group: T) => number): (a: [string, T], b: [string, T]) => number {
  return ([a, x], [b, y]) => count(y) - count(x) || (a < b ? -1 : a > b ? 1 : 0);
}
