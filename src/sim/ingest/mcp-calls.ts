import { MCP_FIELD_LENGTHS, type McpCallInput } from '../../contract/ingest.js';
import { defineIngestKind, type IngestRecord } from './ingest-ledger.js';

/**
 * MCP tool calls as `POST /mcp` stores them (the live `mcp_spans` row), and the readings the
 * service applies on the way in: the client product from the handshake name or the user agent,
 * and the code and message of a failure.
 */

/** One ingested tool call. */
export interface IngestedMcpCall extends IngestRecord {
  /** Null for a call of the organization (sent without a websiteId). */
  readonly websiteId: string | null;
  readonly tool: string;
  /** The client product ('Claude Code', 'Cursor' …), else the client name as sent; '' when neither is known. */
  readonly client: string;
  readonly clientName: string;
  readonly clientVersion: string;
  readonly serverName: string;
  readonly serverVersion: string;
  readonly userAgent: string;
  readonly sessionId: string;
  readonly environment: string;
  readonly isError: boolean;
  /** The failure's message; '' for a successful call. */
  readonly error: string;
  readonly errorCode: string;
  readonly durationMs: number;
  readonly outputChars: number;
}

const textOf = (call: IngestedMcpCall): number =>
  (call.websiteId?.length ?? 0) +
  call.tool.length +
  call.client.length +
  call.clientName.length +
  call.clientVersion.length +
  call.serverName.length +
  call.serverVersion.length +
  call.userAgent.length +
  call.sessionId.length +
  call.environment.length +
  call.error.length +
  call.errorCode.length;

/** The ledger kind of MCP tool calls: kept under their website, or under the organization's owner key. */
export const MCP_CALLS = defineIngestKind<IngestedMcpCall>('mcp-calls', textOf);

/** Client names from the MCP handshake (lower-cased) and the product each stands for. */
const CLIENT_PRODUCTS: ReadonlyMap<string, string> = new Map([
  ['claude-code', 'Claude Code'],
  ['claude-ai', 'Claude'],
  ['chatgpt', 'ChatGPT'],
  ['openai-mcp', 'ChatGPT'],
  ['codex', 'Codex'],
  ['codex-mcp-client', 'Codex'],
  ['cursor-vscode', 'Cursor'],
  ['cursor', 'Cursor'],
  ['visual studio code', 'VS Code'],
  ['visual-studio-code', 'VS Code'],
  ['windsurf', 'Windsurf'],
  ['windsurf-client', 'Windsurf'],
  ['cline', 'Cline'],
  ['roo-code', 'Roo Code'],
  ['kilo-code', 'Kilo Code'],
  ['zed', 'Zed'],
  ['goose', 'Goose'],
  ['opencode', 'OpenCode'],
  ['gemini-cli-mcp-client', 'Gemini CLI'],
  ['github-copilot-developer', 'GitHub Copilot CLI'],
  ['q-dev-cli', 'Amazon Q Developer'],
  ['continue-cli-client', 'Continue'],
  ['postman-client', 'Postman'],
  ['mistral', 'Mistral Le Chat'],
]);

/** User agents that name their product when the handshake name does not. */
const CLIENT_USER_AGENTS: readonly (readonly [RegExp, string])[] = [
  [/claude-code\//i, 'Claude Code'],
  [/^(?:Anthropic\/ClaudeAI|Claude-User|Claude\/)/i, 'Claude'],
  [/^openai-mcp\//i, 'ChatGPT'],
  [/^Cursor\//i, 'Cursor'],
  [/^codex_cli_rs\//i, 'Codex'],
  [/^Visual Studio Code\//i, 'VS Code'],
  [/^windsurf\//i, 'Windsurf'],
];

/** The client product of a call: by handshake name, else by user agent, else the name as sent. */
export function mcpClientOf(clientName: string, userAgent: string): string {
  return CLIENT_PRODUCTS.get(clientName.toLowerCase()) ?? CLIENT_USER_AGENTS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? clientName;
}

/** JSON-RPC error codes and the names the service stores for them. */
const JSON_RPC_CODES: ReadonlyMap<number, string> = new Map([
  [-32700, 'parse_error'],
  [-32600, 'invalid_request'],
  [-32601, 'method_not_found'],
  [-32602, 'invalid_params'],
  [-32603, 'internal_error'],
  [-32001, 'request_timeout'],
]);

const RPC_FAILURE = /^MCP error (-?\d{1,12}): ([\s\S]*)$/;

/** The stored code of a failure: a JSON-RPC number's name, a string as is; cut to 64 characters. */
function codeOf(code: unknown): string {
  const name = typeof code === 'number' ? JSON_RPC_CODES.get(code) : typeof code === 'string' ? code : undefined;
  return name ? name.slice(0, MCP_FIELD_LENGTHS.errorCode) : '';
}

/** The message (and code) of a JSON error body: `{error:{message, code}}`, `{error:"…"}` or `{message, code}`. */
function jsonFailure(text: string): { code: string; message: string } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object') return null;
  const body = parsed as Record<string, unknown>;
  const inner = body.error;
  if (inner !== null && typeof inner === 'object' && typeof (inner as Record<string, unknown>).message === 'string') {
    const { message, code } = inner as Record<string, unknown>;
    return { code: codeOf(code), message: message as string };
  }
  if (typeof inner === 'string') return { code: '', message: inner };
  if (typeof body.message === 'string') return { code: codeOf(body.code), message: body.message };
  return null;
}

/** The longest failure text read as a JSON error body (a longer one is taken as text): bounds the parse. */
const MAX_JSON_FAILURE = 65_536;

/** A failure's code and message (at most 512 characters): `MCP error <n>: …`, a JSON error body, or the text itself. */
export function readMcpFailure(text: string): { code: string; message: string } {
  const rpc = RPC_FAILURE.exec(text);
  if (rpc) return { code: codeOf(Number(rpc[1])), message: (rpc[2] ?? '').slice(0, MCP_FIELD_LENGTHS.error) };
  const json = text.startsWith('{') && text.length <= MAX_JSON_FAILURE ? jsonFailure(text) : null;
  if (json) return { code: json.code, message: json.message.slice(0, MCP_FIELD_LENGTHS.error) };
  return { code: '', message: text.slice(0, MCP_FIELD_LENGTHS.error) };
}

/** How far back and ahead of the arrival instant a call's own timestamp is kept: 6 h and 5 min. */
export const MCP_TIMESTAMP_WINDOW = { pastMs: 6 * 3_600_000, futureMs: 300_000 } as const;

/** A call's time: its own timestamp when within [now − 6 h, now + 5 min], else the arrival instant. */
export function mcpCallTime(timestamp: number | undefined, now: number): number {
  return timestamp !== undefined && Number.isSafeInteger(timestamp) && timestamp >= now - MCP_TIMESTAMP_WINDOW.pastMs && timestamp <= now + MCP_TIMESTAMP_WINDOW.futureMs
    ? timestamp
    : now;
}

const cut = (value: string | undefined, length: number): string => (value === undefined ? '' : value.slice(0, length));

/** The stored form of a call received at `now`. */
export function storedMcpCall(call: McpCallInput, now: number): IngestedMcpCall {
  const failure = call.error === undefined ? null : readMcpFailure(call.error);
  const clientName = cut(call.clientName, MCP_FIELD_LENGTHS.clientName);
  const userAgent = cut(call.userAgent, MCP_FIELD_LENGTHS.userAgent);
  return {
    timestamp: mcpCallTime(call.timestamp, now),
    websiteId: call.websiteId ?? null,
    tool: cut(call.tool, MCP_FIELD_LENGTHS.tool),
    client: mcpClientOf(clientName, userAgent),
    clientName,
    clientVersion: cut(call.clientVersion, MCP_FIELD_LENGTHS.clientVersion),
    serverName: cut(call.serverName, MCP_FIELD_LENGTHS.serverName),
    serverVersion: cut(call.serverVersion, MCP_FIELD_LENGTHS.serverVersion),
    userAgent,
    sessionId: cut(call.sessionId, MCP_FIELD_LENGTHS.sessionId),
    environment: cut(call.environment, MCP_FIELD_LENGTHS.environment),
    isError: failure !== null,
    error: failure?.message ?? '',
    errorCode: cut(call.errorCode, MCP_FIELD_LENGTHS.errorCode) || (failure?.code ?? ''),
    durationMs: call.durationMs,
    outputChars: call.outputChars ?? 0,
  };
}
