import { matchAiAgent } from '../model/derived/ai-crawlers.js';
import { followsLive, type Profile } from '../profile.js';
import type { RouteContext } from '../routing/route.js';

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
 *   included: not a bot;
 * - no User-Agent, or an empty one: blocked by the service (`blockMissingUserAgent: true`), and
 *   by the simulator under the `live` profile (switch `missing-user-agent`); under `spec` it is
 *   let through, since in-process callers and test clients often send none. Either way the
 *   route says so in a `Warning` ({@link warnMissingUserAgent}).
 */

/** What a route does with a request of this User-Agent. */
export type BotAction = 'allow' | 'block' | 'track_only';

/** The detector's verdict: whether the agent is a bot, its category, and the action. */
export interface BotVerdict {
  readonly bot: boolean;
  /** `missing`: no User-Agent, or a blank one (a bot under `live` only). */
  readonly category: 'ai' | 'search_engine' | 'social' | 'monitoring' | 'seo' | 'automation' | 'unknown_bot' | 'missing' | 'none';
  readonly action: BotAction;
}

const SEARCH_ENGINES = /googlebot|google-inspectiontool|storebot-google|bingbot|bingpreview|yandex(?:bot|images)|baiduspider|duckduckbot|applebot|slurp|sogou|exabot|seznambot|yeti\/|petalbot|qwantify|mojeekbot/i;
const SOCIAL = /facebookexternalhit|facebot|twitterbot|linkedinbot|slackbot|slack-imgproxy|discordbot|telegrambot|whatsapp|pinterest|redditbot|skypeuripreview|embedly|quora link preview|bitlybot|tumblr|vkshare|w3c_validator/i;
const MONITORING = /uptimerobot|pingdom|statuscake|site24x7|betteruptime|better uptime|datadog|newrelicpinger|checkly|freshping|hetrixtools|updown\.io/i;
const SEO_TOOLS = /ahrefs|semrush|mj12bot|dotbot|rogerbot|screaming frog|serpstatbot|blexbot|dataforseo|seokicks|megaindex|siteauditbot/i;
const AUTOMATION = /headlesschrome|phantomjs|puppeteer|playwright|selenium|webdriver|lighthouse|pagespeed|gtmetrix|scrapy|python-requests|go-http-client|java\/|libwww-perl|archive\.org_bot|ia_archiver|wayback/i;
const ANY_BOT = /bot|crawl|spider|slurp|scraper/i;

const NOT_A_BOT: BotVerdict = { bot: false, category: 'none', action: 'allow' };
const MISSING_BLOCKED: BotVerdict = { bot: true, category: 'missing', action: 'block' };
const MISSING_ALLOWED: BotVerdict = { bot: false, category: 'missing', action: 'allow' };

/**
 * The verdict for a User-Agent header under `profile`; reads at most 512 characters. A missing
 * or blank one is blocked under `live` and let through under `spec` (`missing-user-agent`).
 */
export function classifyUserAgent(userAgent: string | undefined, profile: Profile): BotVerdict {
  if (userAgent === undefined || userAgent.trim() === '') return followsLive(profile, 'missing-user-agent') ? MISSING_BLOCKED : MISSING_ALLOWED;
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

/** What a route that checked for bots learned of a request without a User-Agent: whether it blocked it. */
export type MissingUserAgent = 'blocked' | 'allowed' | null;

/** Whether a request had no User-Agent (`null` when it had one), and whether the verdict blocked it. */
export function missingUserAgent(verdict: BotVerdict): MissingUserAgent {
  return verdict.category !== 'missing' ? null : verdict.action === 'block' ? 'blocked' : 'allowed';
}

/** The fix both warnings give. */
const SEND_ONE = 'Send a User-Agent header, as browsers and HTTP clients (curl, fetch, the SDKs over HTTP) do';

/**
 * Tells the developer, in a `Warning`, what became of a request without a User-Agent: under
 * `live` that it was blocked as the service blocks it (nothing stored), under `spec` that it was
 * taken but the live service would have blocked it. Routes call it from `handle`, so `--strict`
 * does not turn it into a 400: the answer is the one the profile gives.
 */
export function warnMissingUserAgent(ctx: Pick<RouteContext<unknown>, 'warn'>, missing: MissingUserAgent): void {
  if (missing === 'blocked') {
    ctx.warn({
      field: 'user-agent',
      message: 'No User-Agent header was sent: blocked as a bot, as the live service blocks such a request (blockMissingUserAgent); nothing was stored',
      suggestion: SEND_ONE,
    });
  } else if (missing === 'allowed') {
    ctx.warn({
      field: 'user-agent',
      message: 'No User-Agent header was sent: taken under the spec profile, but the live service (and --profile live) blocks such a request as a bot and stores nothing',
      suggestion: SEND_ONE,
    });
  }
}
