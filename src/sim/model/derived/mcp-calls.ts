import type { Website } from '../entities.js';
import type { Derivation } from '../../traffic-cache.js';
import { logNormal, mix, pickWeighted, unit } from '../hash.js';
import { base36Code, websiteHash } from '../identity.js';
import { DAY_MS } from '../world.js';

/**
 * Tool calls to the MCP servers linked to a website (tracked with @databuddy/sdk/mcp), one
 * website and day at a time. Their volume follows the day's sessions (a busier product is used
 * more by agents too); calls come in client sessions of a few calls each.
 */

/** One tool the simulated MCP servers expose. */
export interface McpTool {
  readonly name: string;
  readonly weight: number;
  /** Median duration, ms. */
  readonly medianMs: number;
  /** Median result size, characters. */
  readonly medianChars: number;
  /** Share of calls that fail. */
  readonly errorRate: number;
  /** Indexes into {@link MCP_ERRORS} this tool fails with. */
  readonly errors: readonly number[];
}

/** Failure messages, indexed by {@link McpDay.error}. */
export const MCP_ERRORS: readonly string[] = [
  'Invalid arguments: "query" is required',
  'Upstream request timed out after 30000ms',
  'Rate limit exceeded, retry in 60s',
  'Not found',
  'Unauthorized: access token expired',
  'Website not found or access denied',
  'Result too large: narrow the date range',
];

/** The tools, indexed by {@link McpDay.tool}. */
export const MCP_TOOLS: readonly McpTool[] = [
  { name: 'search_docs', weight: 24, medianMs: 180, medianChars: 3200, errorRate: 0.015, errors: [0, 1] },
  { name: 'get_page', weight: 16, medianMs: 95, medianChars: 6800, errorRate: 0.03, errors: [3, 6] },
  { name: 'query_analytics', weight: 14, medianMs: 640, medianChars: 2400, errorRate: 0.05, errors: [0, 1, 5, 6] },
  { name: 'list_websites', weight: 8, medianMs: 60, medianChars: 900, errorRate: 0.01, errors: [4] },
  { name: 'get_product', weight: 9, medianMs: 120, medianChars: 1500, errorRate: 0.02, errors: [3] },
  { name: 'list_orders', weight: 6, medianMs: 310, medianChars: 4100, errorRate: 0.04, errors: [2, 4, 6] },
  { name: 'create_ticket', weight: 3, medianMs: 450, medianChars: 300, errorRate: 0.06, errors: [0, 4] },
  { name: 'get_realtime', weight: 5, medianMs: 220, medianChars: 700, errorRate: 0.02, errors: [1, 2] },
];

/** One MCP client product ('' when unidentified) with its versions and user-agent form. */
export interface McpClient {
  readonly name: string;
  readonly versions: readonly string[];
  /** The user agent of a version. */
  userAgent(version: string): string;
  readonly weight: number;
}

/** The clients, indexed by {@link McpDay.client}. */
export const MCP_CLIENTS: readonly McpClient[] = [
  { name: 'Claude Code', versions: ['2.0.14', '2.0.22', '1.0.98'], userAgent: (v) => `claude-code/${v} (cli)`, weight: 30 },
  { name: 'Cursor', versions: ['1.7.3', '1.6.45'], userAgent: (v) => `Cursor/${v} (darwin arm64)`, weight: 22 },
  { name: 'Claude', versions: ['0.13.64', '0.12.55'], userAgent: (v) => `Claude/${v} (Electron)`, weight: 12 },
  { name: 'ChatGPT', versions: ['1.2025.140'], userAgent: () => 'openai-mcp/1.0.0', weight: 10 },
  { name: 'Codex', versions: ['0.46.0', '0.42.0'], userAgent: (v) => `codex_cli_rs/${v}`, weight: 8 },
  { name: 'VS Code', versions: ['1.104.2'], userAgent: (v) => `Visual Studio Code/${v}`, weight: 6 },
  { name: 'Windsurf', versions: ['1.12.4'], userAgent: (v) => `windsurf/${v}`, weight: 3 },
  { name: '', versions: [''], userAgent: () => 'node', weight: 4 },
];

/** Deployment environments, indexed by {@link McpDay.environment}. */
export const MCP_ENVIRONMENTS = ['production', 'staging', 'development'] as const;
const ENVIRONMENT_WEIGHTS = [85, 10, 5];

/** Tool calls of one website's day. */
export interface McpDay {
  readonly count: number;
  readonly timeMs: Float64Array;
  /** Index into {@link MCP_TOOLS}. */
  readonly tool: Uint8Array;
  /** Index into {@link MCP_CLIENTS}. */
  readonly client: Uint8Array;
  /** Index into the client's versions. */
  readonly version: Uint8Array;
  /** Index into {@link mcpServerNames} of the website. */
  readonly server: Uint8Array;
  /** Index into {@link MCP_ENVIRONMENTS}. */
  readonly environment: Uint8Array;
  /** The client session id; '' for stateless calls. */
  readonly session: readonly string[];
  /** 1 for a failed call. */
  readonly isError: Uint8Array;
  /** Index into {@link MCP_ERRORS} (meaningful for failed calls). */
  readonly error: Uint8Array;
  readonly durationMs: Uint32Array;
  readonly outputChars: Uint32Array;
}

/** Calls per session sample: the MCP volume relative to the site's human traffic. */
const CALLS_PER_SAMPLE = 0.05;

/**
 * When a website's MCP server started sending tool calls, epoch ms; null for sites without
 * one (the tiny ones).
 */
export function mcpTrackingSince(seedHash: number, website: Website): number | null {
  if (website.size === 'tiny') return null;
  const days = 30 + Math.floor(unit(seedHash, websiteHash(website.id), 0x61) * 90);
  return (Math.floor(website.createdAt / DAY_MS) + days) * DAY_MS;
}

/** The MCP server names of a website: one, or two for larger sites. */
export function mcpServerNames(website: Website): readonly string[] {
  const slug = website.domain.split('.')[0] ?? website.id;
  return website.size === 'large' || website.size === 'huge' ? [`${slug}-mcp`, `${slug}-internal-mcp`] : [`${slug}-mcp`];
}


/**
 * The MCP tool calls of a day: sessions of one to six calls, about {@link CALLS_PER_SAMPLE} calls
 * per session sample, a pure function of the seed, the website, the day and the session index.
 */
export const mcpToolCalls: Derivation<McpDay> = {
  name: 'mcp-tool-calls',
  derive({ seedHash, website, day, sessions }) {
    const site = websiteHash(website.id);
    const since = mcpTrackingSince(seedHash, website);
    const servers = mcpServerNames(website).length;
    const rate = CALLS_PER_SAMPLE * (0.5 + unit(seedHash, site, 0x62));
    const sessionCount = since === null || day * DAY_MS < since ? 0 : Math.round((sessions.count * rate) / 3.5);
    const toolWeights = MCP_TOOLS.map((t, k) => t.weight * (0.2 + 1.6 * unit(seedHash, site, k, 0x63)));
    const clientWeights = MCP_CLIENTS.map((c) => c.weight);
    const out = {
      timeMs: [] as number[], tool: [] as number[], client: [] as number[], version: [] as number[], server: [] as number[],
      environment: [] as number[], session: [] as string[], isError: [] as number[], error: [] as number[],
      durationMs: [] as number[], outputChars: [] as number[],
    };
    for (let s = 0; s < sessionCount; s++) {
      const c = pickWeighted(clientWeights, unit(seedHash, site, day, s, 0x64));
      const client = MCP_CLIENTS[c] as McpClient;
      const version = Math.floor(unit(seedHash, site, day, s, 0x65) * client.versions.length);
      const server = Math.floor(unit(seedHash, site, day, s, 0x66) * servers);
      const environment = pickWeighted(ENVIRONMENT_WEIGHTS, unit(seedHash, site, day, s, 0x67));
      const session = unit(seedHash, site, day, s, 0x68) < 0.1 ? '' : `mcps_${base36Code(day, 4)}${base36Code(s, 3)}${base36Code(mix(seedHash, site, day, s), 6)}`;
      const calls = 1 + Math.floor(unit(seedHash, site, day, s, 0x69) * 6);
      let at = day * DAY_MS + Math.floor(unit(seedHash, site, day, s, 0x6a) * (DAY_MS - 600_000));
      for (let k = 0; k < calls; k++) {
        const t = pickWeighted(toolWeights, unit(seedHash, site, day, s, k, 0x6b));
        const tool = MCP_TOOLS[t] as McpTool;
        const failed = unit(seedHash, site, day, s, k, 0x6c) < tool.errorRate;
        const duration = Math.max(1, Math.round(logNormal(tool.medianMs, 0.8, unit(seedHash, site, day, s, k, 0x6d), unit(seedHash, site, day, s, k, 0x6e))));
        out.timeMs.push(Math.min(at, (day + 1) * DAY_MS - 1));
        out.tool.push(t);
        out.client.push(c);
        out.version.push(version);
        out.server.push(server);
        out.environment.push(environment);
        out.session.push(session);
        out.isError.push(failed ? 1 : 0);
        out.error.push(tool.errors[Math.floor(unit(seedHash, site, day, s, k, 0x6f) * tool.errors.length)] as number);
        out.durationMs.push(failed ? Math.min(duration, 30_000) : duration);
        out.outputChars.push(failed ? 0 : Math.round(logNormal(tool.medianChars, 0.7, unit(seedHash, site, day, s, k, 0x70), unit(seedHash, site, day, s, k, 0x71))));
        at += duration + Math.floor(unit(seedHash, site, day, s, k, 0x72) * 20_000);
      }
    }
    return {
      count: out.timeMs.length,
      timeMs: Float64Array.from(out.timeMs),
      tool: Uint8Array.from(out.tool),
      client: Uint8Array.from(out.client),
      version: Uint8Array.from(out.version),
      server: Uint8Array.from(out.server),
      environment: Uint8Array.from(out.environment),
      session: out.session,
      isError: Uint8Array.from(out.isError),
      error: Uint8Array.from(out.error),
      durationMs: Uint32Array.from(out.durationMs),
      outputChars: Uint32Array.from(out.outputChars),
    };
  },
};
