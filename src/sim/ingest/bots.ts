/**
 * User agents `/track` treats as bots: it answers them 204 with an empty body and stores
 * nothing, as the service does. Crawlers, spiders, link previewers, headless and automated
 * browsers and monitoring probes. Ordinary HTTP clients (curl, node and undici `fetch`, the
 * official SDKs) are not bots.
 */
const BOT_PATTERNS: readonly RegExp[] = [
  /bot/i,
  /crawl/i,
  /spider/i,
  /slurp/i,
  /headlesschrome|phantomjs|puppeteer|playwright|selenium|webdriver/i,
  /facebookexternalhit|embedly|quora link preview|bitlybot|whatsapp|skypeuripreview/i,
  /lighthouse|pagespeed|gtmetrix|pingdom|uptimerobot|statuscake|site24x7/i,
  /archive\.org_bot|ia_archiver|wayback/i,
];

/** Whether a user agent is a bot's. A missing or empty user agent is not. */
export function isBotUserAgent(userAgent: string | undefined): boolean {
  if (!userAgent) return false;
  const ua = userAgent.slice(0, 512);
  return BOT_PATTERNS.some((pattern) => pattern.test(ua));
}
