import { AGENT_HIT_LENGTHS, type AgentHit } from '../../contract/ingest.js';
import { AI_AGENTS, CONTENT_FORMATS, matchAiAgent, UNIDENTIFIED_AGENTS_PRODUCT, type AiAgent } from '../model/derived/ai-crawlers.js';
import { defineIngestKind, type IngestRecord } from './ingest-ledger.js';

/**
 * AI crawler and agent requests as `POST /ai-traffic` stores them (the live `ai_traffic_spans`
 * rows of source `middleware`), with the agent read from the request the way the generated
 * requests' agents are named (the registry of `model/derived/ai-crawlers.ts`).
 */

/** One received agent request. */
export interface IngestedAgentHit extends IngestRecord {
  readonly agent: AiAgent;
  readonly path: string;
  readonly format: (typeof CONTENT_FORMATS)[number];
  readonly host: string;
  readonly userAgent: string;
  readonly accept: string;
  readonly referrer: string;
}

const textOf = (hit: IngestedAgentHit): number =>
  hit.path.length + hit.host.length + hit.userAgent.length + hit.accept.length + hit.referrer.length + (AI_AGENTS.includes(hit.agent) ? 0 : hit.agent.id.length * 2);

/** The ledger kind of received agent requests, kept under their website. */
export const AI_AGENT_HITS = defineIngestKind<IngestedAgentHit>('ai-agent-hits', textOf);

const SETUP_CHECK = /DatabuddySetupCheck\/([\w-]{1,64})/;

/** The nonce of a setup check's user agent (`DatabuddySetupCheck/<nonce>`), or null. */
export function setupCheckNonce(userAgent: string): string | null {
  return SETUP_CHECK.exec(userAgent)?.[1] ?? null;
}

/** Whether an Accept header asks for markdown before HTML (how unnamed agents fetching for a model show). */
function prefersMarkdown(accept: string): boolean {
  const types = accept.toLowerCase().split(',').map((part) => part.split(';')[0]?.trim() ?? '');
  const markdown = types.indexOf('text/markdown');
  const html = types.indexOf('text/html');
  return markdown !== -1 && (html === -1 || markdown < html);
}

/** Signature-Agent origins of signed agents and the agent each is. */
const SIGNED_AGENTS: readonly (readonly [RegExp, string])[] = [[/^"?https:\/\/chatgpt\.com"?$/i, 'openai-crawler-user']];

const MOZILLA_AGENT = AI_AGENTS.find((a) => a.id === 'unidentified:mozilla') as AiAgent;

/** An agent the registry does not name, by the first product token of its user agent. */
function unidentifiedAgent(userAgent: string): AiAgent {
  const token = /^[A-Za-z0-9._-]{1,64}/.exec(userAgent.trim())?.[0]?.toLowerCase() ?? '';
  if (token === '' || token === 'mozilla') return MOZILLA_AGENT;
  const known = AI_AGENTS.find((a) => a.id === `unidentified:${token}`);
  if (known) return known;
  return {
    id: `unidentified:${token}`,
    name: token,
    product: UNIDENTIFIED_AGENTS_PRODUCT,
    operator: '',
    purpose: 'agent',
    purposeInferred: false,
    userAgent: userAgent.slice(0, AGENT_HIT_LENGTHS.userAgent),
    match: /(?!)/,
    weight: 0,
    markdown: 0,
    llms: 0,
  };
}

/**
 * The agent of a request: the one its user agent names, else a signed agent by its
 * Signature-Agent, else an unnamed agent when it asks for markdown first; null for a request
 * that is no AI agent's (the query types read only agents' requests, so it is not kept).
 */
export function agentOfHit(hit: Pick<AgentHit, 'userAgent' | 'accept' | 'signatureAgent'>): AiAgent | null {
  const named = matchAiAgent(hit.userAgent);
  if (named) return named;
  const signature = hit.signatureAgent?.trim();
  const signed = signature ? SIGNED_AGENTS.find(([pattern]) => pattern.test(signature)) : undefined;
  if (signed) return AI_AGENTS.find((a) => a.id === signed[1]) ?? null;
  return hit.accept !== undefined && prefersMarkdown(hit.accept) ? unidentifiedAgent(hit.userAgent) : null;
}

/** The content format of a hit: html, markdown or llms; anything else counts as html. */
export function formatOfHit(format: string | undefined): (typeof CONTENT_FORMATS)[number] {
  return (CONTENT_FORMATS as readonly string[]).includes(format ?? '') ? (format as (typeof CONTENT_FORMATS)[number]) : 'html';
}
