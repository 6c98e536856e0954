import { referrerHost } from '../engine/labels.js';

/** A referrer as the live `parseReferrers` plugin describes it. */
export interface ParsedReferrer {
  /** Display name: `Google`, `Direct`, or the host for sites without a known name. */
  readonly name: string;
  /** Canonical URL (`https://google.com`), or `direct`. */
  readonly url: string;
  /** Host without `www.`; '' for direct. */
  readonly domain: string;
}

/** Hosts the live SQL collapses into one canonical site (its referrer CASE expression). */
const COLLAPSED: readonly (readonly [RegExp, string])[] = [
  [/^google\.[a-z.]+$/, 'google.com'],
  [/(^|\.)facebook\.com$/, 'facebook.com'],
  [/^(twitter\.com|x\.com|t\.co)$/, 'twitter.com'],
  [/(^|\.)instagram\.com$/, 'instagram.com'],
  [/(^|\.)linkedin\.com$/, 'linkedin.com'],
];

/** Display names of well-known referrer hosts (after collapsing). */
const NAMES: Readonly<Record<string, string>> = {
  'google.com': 'Google',
  'bing.com': 'Bing',
  'duckduckgo.com': 'DuckDuckGo',
  'search.brave.com': 'Brave Search',
  'search.yahoo.com': 'Yahoo',
  'ecosia.org': 'Ecosia',
  'yandex.com': 'Yandex',
  'baidu.com': 'Baidu',
  'twitter.com': 'Twitter',
  'reddit.com': 'Reddit',
  'news.ycombinator.com': 'Hacker News',
  'linkedin.com': 'LinkedIn',
  'facebook.com': 'Facebook',
  'youtube.com': 'YouTube',
  'instagram.com': 'Instagram',
  'bsky.app': 'Bluesky',
  'discord.com': 'Discord',
  'pinterest.com': 'Pinterest',
  'mastodon.social': 'Mastodon',
  'threads.net': 'Threads',
  'mail.google.com': 'Gmail',
  'outlook.live.com': 'Outlook',
  'outlook.office.com': 'Outlook',
  'mail.yahoo.com': 'Yahoo Mail',
  'mail.proton.me': 'Proton Mail',
  'github.com': 'GitHub',
  'stackoverflow.com': 'Stack Overflow',
  'chatgpt.com': 'ChatGPT',
  'perplexity.ai': 'Perplexity',
  'producthunt.com': 'Product Hunt',
  'en.wikipedia.org': 'Wikipedia',
};

/** The host a referrer URL is counted under: the live SQL's normalisation. */
export function canonicalHost(url: string): string {
  const host = referrerHost(url);
  for (const [pattern, site] of COLLAPSED) if (pattern.test(host)) return site;
  return host;
}

/** Parses a stored referrer URL ('' for direct traffic) as the live plugin would. */
export function parseReferrer(url: string): ParsedReferrer {
  if (url === '') return { name: 'Direct', url: 'direct', domain: '' };
  const host = canonicalHost(url);
  return { name: NAMES[host] ?? host, url: `https://${host}`, domain: host };
}
