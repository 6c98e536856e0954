import { matchAiAgent } from '../model/derived/ai-crawlers.js';

/**
 * How the ingestion service treats a User-Agent (the shared bot detector with its default
 * configuration, `@databuddy/shared/bot-detection`):
 *
 * - an AI crawler or assistant (the AI registry of the generated data): `track_only`, answered
 *   204 and stored as no analytics row (the browser routes record its page views as AI traffic);
 * - a search engine, a social network's link previewer or an uptime monitor: `allow`, ingested
 *   like a person;
 * - an SEO tool, a headless or automated browser, a scraper or any other bot: `block`, 204 and
 *   nothing stored;
 * - anything else, ordinary HTTP clients (curl, node and undici `fetch`, the official SDKs)
 *   included: not a bot.
 *
 * One difference, on purpose: the service blocks a missing or empty User-Agent; the simulator
 * does not, since in-process callers and test clients often send none.
 */

/** What a route does with a request of this User-Agent. */
export type BotAction = 'allow' | 'block' | 'track_only';

/** The detector's verdict: whether the agent is a bot, its category, and the action. */
export interface BotVerdict {
  readonly bot: boolean;
  readonly category: 'ai' | 'search_engine' | 'social' | 'monitoring' | 'seo' | 'automation' | 'unknown_bot' | 'none';
  readonly action: BotAction;
}

const SEARCH_ENGINES = /googlebot|google-inspectiontool|storebot-google|bingbot|bingpreview|yandex(?:bot|images)|baiduspider|duckduckbot|applebot|slurp|sogou|exabot|seznambot|yeti\/|petalbot|qwantify|mojeekbot/i;
const SOCIAL = /facebookexternalhit|facebot|twitterbot|linkedinbot|slackbot|slack-imgproxy|discordbot|telegrambot|whatsapp|pinterest|redditbot|skypeuripreview|embedly|quora link preview|bitlybot|tumblr|vkshare|w3c_validator/i;
const MONITORING = /uptimerobot|pingdom|statuscake|site24x7|betteruptime|better uptime|datadog|newrelicpinger|checkly|freshping|hetrixtools|updown\.io/i;
const SEO_TOOLS = /ahrefs|semrush|mj12bot|dotbot|rogerbot|screaming frog|serpstatbot|blexbot|dataforseo|seokicks|megaindex|siteauditbot/i;
const AUTOMATION = /headlesschrome|phantomjs|puppeteer|playwright|selenium|webdriver|lighthouse|pagespeed|gtmetrix|scrapy|python-requests|go-http-client|java\/|libwww-perl|archive\.org_bot|ia_archiver|wayback/i;
const ANY_BOT = /bot|crawl|spider|slurp|scraper/i;

const NOT_A_BOT: BotVerdict = { bot: false, category: 'none', action: 'allow' };

/** The verdict for a User-Agent header; reads at most 512 characters. */
export function classifyUserAgent(userAgent: string | undefined): BotVerdict {
  if (!userAgent) return NOT_A_BOT;
  const ua = userAgent.slice(0, 512);
  if (matchAiAgent(ua)) return { bot: true, category: 'ai', action: 'track_only' };
  if (SEARCH_ENGINES.test(ua)) return { bot: true, category: 'search_engine', action: 'allow' };
  if (SOCIAL.test(ua)) return { bot: true, category: 'social', action: 'allow' };
  if (MONITORING.test(ua)) return { bot: true, category: 'monitoring', action: 'allow' };
  if (SEO_TOOLS.test(ua)) return { bot: true, category: 'seo', action: 'block' };
  if (AUTOMATION.test(ua)) return { bot: true, category: 'automation', action: 'block' };
  if (ANY_BOT.test(ua)) return { bot: true, category: 'unknown_bot', action: 'block' };
  return NOT_A_BOT;
}

/** Whether a route answers this User-Agent as a bot (204 or per-item "Bot detected") and stores no analytics row. */
export function isBotUserAgent(userAgent: string | undefined): boolean {
  return classifyUserAgent(userAgent).action !== 'allow';
}
