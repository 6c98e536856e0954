import type { Website } from '../entities.js';
import type { Derivation } from '../../traffic-cache.js';
import { pickWeighted, unit } from '../hash.js';
import { websiteHash } from '../identity.js';
import { DAY_MS } from '../world.js';

/**
 * Requests of AI crawlers and agents (GPTBot, ClaudeBot, PerplexityBot, ChatGPT-User, Claude
 * Code …) to a website on one day. They are not sessions: their number follows the day's
 * sessions (a busier site is crawled more) and the pages they read are the pages the day's
 * visitors viewed, plus robots.txt, sitemaps and llms.txt. Each record stands for
 * {@link AiCrawlerDay.weight} requests, like a session sample.
 */

/** Why an agent fetches pages, as the live catalogue classifies it. */
export type AgentPurpose = 'training' | 'search_index' | 'user_fetch' | 'agent';

/** One AI crawler or agent the simulated sites see. */
export interface AiAgent {
  readonly id: string;
  /** Display name ('GPTBot'); for unidentified agents the token after `unidentified:`. */
  readonly name: string;
  /** The AI product it belongs to ('ChatGPT'); 'Unidentified agents' for unidentified ones. */
  readonly product: string;
  /** The company operating it; '' for unidentified agents. */
  readonly operator: string;
  readonly purpose: AgentPurpose;
  /** The purpose is inferred, not stated by the operator. */
  readonly purposeInferred: boolean;
  readonly userAgent: string;
  /** What names the agent in a user agent (its product token), for classifying received requests. */
  readonly match: RegExp;
  /** Relative request volume. */
  readonly weight: number;
  /** Shares of requests asking for markdown and for llms.txt (the rest is HTML). */
  readonly markdown: number;
  readonly llms: number;
}

/** Product name of agents that could not be identified. */
export const UNIDENTIFIED_AGENTS_PRODUCT = 'Unidentified agents';

const MOZILLA = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible;';

/** The agents, indexed by {@link AiCrawlerDay.agent}. */
export const AI_AGENTS: readonly AiAgent[] = [
  { id: 'openai-crawler', name: 'GPTBot', product: 'ChatGPT', operator: 'OpenAI', purpose: 'training', purposeInferred: false, userAgent: `${MOZILLA} GPTBot/1.2; +https://openai.com/gptbot)`, match: /\bGPTBot\b/i, weight: 22, markdown: 0.02, llms: 0.03 },
  { id: 'openai-crawler-search', name: 'OAI-SearchBot', product: 'ChatGPT', operator: 'OpenAI', purpose: 'search_index', purposeInferred: false, userAgent: `${MOZILLA} OAI-SearchBot/1.0; +https://openai.com/searchbot)`, match: /\bOAI-SearchBot\b/i, weight: 12, markdown: 0.02, llms: 0.02 },
  { id: 'openai-crawler-user', name: 'ChatGPT-User', product: 'ChatGPT', operator: 'OpenAI', purpose: 'user_fetch', purposeInferred: false, userAgent: `${MOZILLA} ChatGPT-User/1.0; +https://openai.com/bot)`, match: /\bChatGPT-User\b/i, weight: 14, markdown: 0.08, llms: 0.01 },
  { id: 'anthropic-crawler', name: 'ClaudeBot', product: 'Claude', operator: 'Anthropic', purpose: 'training', purposeInferred: false, userAgent: `${MOZILLA} ClaudeBot/1.0; +claudebot@anthropic.com)`, match: /\bClaudeBot\b/i, weight: 16, markdown: 0.03, llms: 0.04 },
  { id: 'anthropic-crawler-search', name: 'Claude-SearchBot', product: 'Claude', operator: 'Anthropic', purpose: 'search_index', purposeInferred: false, userAgent: `${MOZILLA} Claude-SearchBot/1.0; +searchbot@anthropic.com)`, match: /\bClaude-SearchBot\b/i, weight: 5, markdown: 0.03, llms: 0.03 },
  { id: 'anthropic-crawler-user', name: 'Claude-User', product: 'Claude', operator: 'Anthropic', purpose: 'user_fetch', purposeInferred: false, userAgent: `${MOZILLA} Claude-User/1.0; +Claude-User@anthropic.com)`, match: /\bClaude-User\b/i, weight: 6, markdown: 0.12, llms: 0.02 },
  { id: 'claude-code', name: 'Claude Code', product: 'Claude Code', operator: 'Anthropic', purpose: 'agent', purposeInferred: false, userAgent: 'Claude-User (claude-code/2.0.14; +https://support.anthropic.com/)', match: /\bclaude-code\//i, weight: 4, markdown: 0.55, llms: 0.1 },
  { id: 'perplexity-crawler', name: 'PerplexityBot', product: 'Perplexity', operator: 'Perplexity', purpose: 'search_index', purposeInferred: false, userAgent: `${MOZILLA} PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)`, match: /\bPerplexityBot\b/i, weight: 9, markdown: 0.01, llms: 0.02 },
  { id: 'perplexity-user', name: 'Perplexity-User', product: 'Perplexity', operator: 'Perplexity', purpose: 'user_fetch', purposeInferred: false, userAgent: `${MOZILLA} Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)`, match: /\bPerplexity-User\b/i, weight: 5, markdown: 0.02, llms: 0.01 },
  { id: 'google-crawler-other', name: 'GoogleOther', product: 'Google Gemini', operator: 'Google', purpose: 'training', purposeInferred: true, userAgent: 'Mozilla/5.0 (compatible; GoogleOther)', match: /\bGoogleOther\b/i, weight: 8, markdown: 0, llms: 0.01 },
  { id: 'google-gemini-deep-research', name: 'Gemini-Deep-Research', product: 'Google Gemini', operator: 'Google', purpose: 'user_fetch', purposeInferred: false, userAgent: `${MOZILLA} Gemini-Deep-Research; +https://gemini.google/overview/deep-research/)`, match: /\bGemini-Deep-Research\b/i, weight: 2, markdown: 0.05, llms: 0.02 },
  { id: 'meta-crawler', name: 'meta-externalagent', product: 'Meta AI', operator: 'Meta', purpose: 'training', purposeInferred: false, userAgent: 'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)', match: /\bmeta-externalagent\b/i, weight: 10, markdown: 0, llms: 0.01 },
  { id: 'meta-crawler-user', name: 'meta-externalfetcher', product: 'Meta AI', operator: 'Meta', purpose: 'user_fetch', purposeInferred: false, userAgent: 'meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)', match: /\bmeta-externalfetcher\b/i, weight: 2, markdown: 0, llms: 0 },
  { id: 'microsoft-copilot-user', name: 'Copilot', product: 'Microsoft Copilot', operator: 'Microsoft', purpose: 'user_fetch', purposeInferred: false, userAgent: `${MOZILLA} Copilot/1.0; +https://aka.ms/copilot)`, match: /\bCopilot\/\d/i, weight: 2, markdown: 0.02, llms: 0 },
  { id: 'amazon-crawler', name: 'Amazonbot', product: 'Amazon', operator: 'Amazon', purpose: 'training', purposeInferred: false, userAgent: `${MOZILLA} Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)`, match: /\bAmazonbot\b/i, weight: 7, markdown: 0, llms: 0 },
  { id: 'bytedance-crawler', name: 'Bytespider', product: 'ByteDance', operator: 'ByteDance', purpose: 'training', purposeInferred: false, userAgent: `${MOZILLA} Bytespider; spider-feedback@bytedance.com)`, match: /\bBytespider\b/i, weight: 6, markdown: 0, llms: 0 },
  { id: 'commoncrawl-crawler', name: 'CCBot', product: 'Common Crawl', operator: 'Common Crawl', purpose: 'training', purposeInferred: true, userAgent: 'CCBot/2.0 (https://commoncrawl.org/faq/)', match: /\bCCBot\b/i, weight: 4, markdown: 0, llms: 0.01 },
  { id: 'mistral-ai-user', name: 'MistralAI-User', product: 'Mistral', operator: 'Mistral', purpose: 'user_fetch', purposeInferred: false, userAgent: 'Mozilla/5.0 (compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)', match: /\bMistralAI-User\b/i, weight: 1.5, markdown: 0.04, llms: 0.02 },
  { id: 'unidentified:python-requests', name: 'python-requests', product: UNIDENTIFIED_AGENTS_PRODUCT, operator: '', purpose: 'agent', purposeInferred: false, userAgent: 'python-requests/2.32.3', match: /^python-requests\//i, weight: 3, markdown: 0.1, llms: 0.05 },
  { id: 'unidentified:mozilla', name: 'Unnamed browser client', product: UNIDENTIFIED_AGENTS_PRODUCT, operator: '', purpose: 'agent', purposeInferred: false, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', match: /\bHeadlessChrome\//i, weight: 2, markdown: 0.2, llms: 0.02 },
];

/** Content formats, indexed by {@link AiCrawlerDay.format}. */
export const CONTENT_FORMATS = ['html', 'markdown', 'llms'] as const;

/** Paths that are not pages of the site's dictionary; record paths at or above the dictionary size index them. */
export const EXTRA_PATHS = ['/robots.txt', '/sitemap.xml', '/llms.txt', '/llms-full.txt'] as const;

/** Record paths at or above this code are {@link EXTRA_PATHS}; dictionary path codes stay below it. */
export const EXTRA_PATH_BASE = 65_000;

/**
 * Where a request was recorded: the browser tracker, server-side by a Vercel log drain, or by the
 * site's middleware (`POST /ai-traffic`; never generated, only received).
 */
export const REQUEST_SOURCES = ['browser', 'vercel', 'middleware'] as const;

/** Requests of one website's day. */
export interface AiCrawlerDay {
  readonly count: number;
  /** Real requests each record stands for. */
  readonly weight: number;
  /** Request time, epoch ms, within the day. */
  readonly timeMs: Float64Array;
  /** Index into {@link AI_AGENTS}. */
  readonly agent: Uint8Array;
  /** A `path` dictionary code, or {@link EXTRA_PATH_BASE} plus an index into {@link EXTRA_PATHS}. */
  readonly path: Uint16Array;
  /** Index into {@link CONTENT_FORMATS}. */
  readonly format: Uint8Array;
  /** HTTP status; 0 when unknown (browser tracker rows). */
  readonly status: Uint16Array;
  /** Index into {@link REQUEST_SOURCES}. */
  readonly source: Uint8Array;
}

/** Records per session sample: the crawl volume relative to the site's human traffic. */
const REQUESTS_PER_SAMPLE = 0.12;

/** Server statuses of successful and failed requests, with their shares. */
const STATUSES: readonly (readonly [status: number, weight: number])[] = [
  [200, 910], [301, 15], [304, 15], [404, 40], [403, 8], [429, 6], [500, 4], [503, 2],
];
const STATUS_WEIGHTS = STATUSES.map(([, w]) => w);

/**
 * When a website started sending server-side requests (a Vercel log drain), epoch ms; null for
 * sites that never did (the tiny ones). Before it only agents that run JavaScript are seen, by
 * the browser tracker, without a status.
 */
export function serverTrackingSince(seedHash: number, website: Website): number | null {
  if (website.size === 'tiny') return null;
  const site = websiteHash(website.id);
  const days = 14 + Math.floor(unit(seedHash, site, 0x51) * 150);
  const day = Math.floor(website.createdAt / DAY_MS) + days;
  return day * DAY_MS + Math.floor(unit(seedHash, site, 0x52) * DAY_MS);
}

function runsJavaScript(agent: AiAgent): boolean {
  return agent.purpose === 'user_fetch' || agent.purpose === 'agent';
}

/**
 * The AI requests of a day: about {@link REQUESTS_PER_SAMPLE} records per session sample, each
 * reading a page a visitor of the day viewed (a pure function of the seed, website, day and
 * record index). Sites favour different agents.
 */
export const aiCrawlerRequests: Derivation<AiCrawlerDay> = {
  name: 'ai-crawler-requests',
  derive({ seedHash, website, day, sessions }) {
    const site = websiteHash(website.id);
    const since = serverTrackingSince(seedHash, website);
    const pathCount = sessions.pagePaths.length;
    const siteRate = REQUESTS_PER_SAMPLE * (0.6 + 0.8 * unit(seedHash, site, 0x53));
    const candidates = pathCount === 0 ? 0 : Math.max(1, Math.round(sessions.count * siteRate));
    const agentWeights = AI_AGENTS.map((a, k) => a.weight * (0.3 + 1.4 * unit(seedHash, site, k, 0x54)));
    const timeMs: number[] = [];
    const agent: number[] = [];
    const path: number[] = [];
    const format: number[] = [];
    const status: number[] = [];
    const source: number[] = [];
    for (let r = 0; r < candidates; r++) {
      const t = day * DAY_MS + Math.floor(unit(seedHash, site, day, r, 0x55) * DAY_MS);
      const a = pickWeighted(agentWeights, unit(seedHash, site, day, r, 0x56));
      const spec = AI_AGENTS[a] as AiAgent;
      const serverSide = since !== null && t >= since;
      if (!serverSide && !runsJavaScript(spec)) continue;
      const u = unit(seedHash, site, day, r, 0x57);
      let f = 0;
      let p = sessions.pagePaths[Math.floor(unit(seedHash, site, day, r, 0x58) * pathCount)] as number;
      if (u < spec.llms) {
        f = 2;
        p = EXTRA_PATH_BASE + (unit(seedHash, site, day, r, 0x59) < 0.7 ? 2 : 3);
      } else if (u < spec.llms + spec.markdown) {
        f = 1;
      } else if (serverSide && !runsJavaScript(spec) && unit(seedHash, site, day, r, 0x5a) < 0.06) {
        p = EXTRA_PATH_BASE + (unit(seedHash, site, day, r, 0x5b) < 0.5 ? 0 : 1);
      }
      timeMs.push(t);
      agent.push(a);
      path.push(p);
      format.push(f);
      status.push(serverSide ? (STATUSES[pickWeighted(STATUS_WEIGHTS, unit(seedHash, site, day, r, 0x5c))] as readonly [number, number])[0] : 0);
      source.push(serverSide ? 1 : 0);
    }
    return {
      count: timeMs.length,
      weight: sessions.weight,
      timeMs: Float64Array.from(timeMs),
      agent: Uint8Array.from(agent),
      path: Uint16Array.from(path),
      format: Uint8Array.from(format),
      status: Uint16Array.from(status),
      source: Uint8Array.from(source),
    };
  },
};

/** The path a record's code stands for. */
export function requestPath(code: number, paths: readonly string[]): string {
  return code >= EXTRA_PATH_BASE ? (EXTRA_PATHS[code - EXTRA_PATH_BASE] as string) : (paths[code] ?? '');
}

/** Whether a path is a page: not robots.txt, a sitemap, a data file or a dotfile (live NON_PAGE_PATH). */
export function isPagePath(path: string): boolean {
  return !/(^|\/)robots\.txt$|(^|\/)sitemap[^/]*\.txt$|\.(xml|json|webmanifest)$|(^|\/)\./i.test(path);
}

/** Whether a status counts as a successful request: unknown (0) or 2xx. */
export function isSuccessful(status: number): boolean {
  return status === 0 || (status >= 200 && status < 300);
}

const AGENTS_FIRST: readonly AiAgent[] = [...AI_AGENTS.filter((a) => a.purpose === 'agent'), ...AI_AGENTS.filter((a) => a.purpose !== 'agent')];

/**
 * The agent a user agent names, as the generated requests' agents are named: the first of
 * {@link AI_AGENTS} whose `match` it contains, agents acting for a user first (Claude Code sends
 * `Claude-User (claude-code/…)`); null for a user agent that names none.
 */
export function matchAiAgent(userAgent: string): AiAgent | null {
  const ua = userAgent.slice(0, 512);
  return AGENTS_FIRST.find((agent) => agent.match.test(ua)) ?? null;
}
