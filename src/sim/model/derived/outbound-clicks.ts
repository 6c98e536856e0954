import type { Derivation } from '../../traffic-cache.js';
import { websiteHash } from '../identity.js';
import { pickWeighted, unit } from '../hash.js';
import { DAY_MS } from '../world.js';

/** An external link a page can hold: where it goes, its visible text, and how often it is clicked. */
export interface OutboundLink {
  readonly href: string;
  readonly text: string;
  readonly weight: number;
}

/** The external links of the generated sites (some hrefs under two texts, some domains with two hrefs). */
export const OUTBOUND_LINKS: readonly OutboundLink[] = [
  { href: 'https://github.com/acme/acme', text: 'GitHub', weight: 14 },
  { href: 'https://github.com/acme/acme', text: 'Star us on GitHub', weight: 6 },
  { href: 'https://github.com/acme/acme/releases', text: 'Changelog', weight: 3 },
  { href: 'https://x.com/acme', text: 'Follow us', weight: 7 },
  { href: 'https://www.linkedin.com/company/acme', text: 'LinkedIn', weight: 5 },
  { href: 'https://www.youtube.com/watch?v=acme-demo', text: 'Watch the demo', weight: 6 },
  { href: 'https://discord.gg/acme', text: 'Join our Discord', weight: 5 },
  { href: 'https://docs.stripe.com/payments', text: 'Stripe docs', weight: 3 },
  { href: 'https://developer.mozilla.org/en-US/docs/Web/API', text: 'MDN reference', weight: 4 },
  { href: 'https://developer.mozilla.org/en-US/docs/Web/HTTP', text: 'HTTP on MDN', weight: 2 },
  { href: 'https://status.acme.dev/', text: 'Status', weight: 2 },
  { href: 'https://www.producthunt.com/products/acme', text: 'Product Hunt', weight: 2 },
  { href: 'https://en.wikipedia.org/wiki/Web_analytics', text: 'Web analytics', weight: 1.5 },
  { href: 'https://news.ycombinator.com/item?id=41234567', text: 'Discuss on Hacker News', weight: 1.5 },
];

/** Share of pageviews on which the visitor clicks an external link. */
const CLICK_SHARE = 0.035;

/** Outbound link clicks of one website's day: one per clicking pageview, in pageview order. */
export interface OutboundClicks {
  readonly count: number;
  /** Sample index of the session that clicked. */
  readonly session: Uint32Array;
  /** Pageview index (into the batch's page columns) the click was made from. */
  readonly page: Uint32Array;
  /** Click time, epoch ms, inside the pageview. */
  readonly timeMs: Float64Array;
  /** Index into {@link OUTBOUND_LINKS}. */
  readonly link: Uint8Array;
}

/**
 * The outbound link clicks of a day's sessions: each pageview clicks an external link with a
 * fixed chance, a pure function of the seed, the website, the day and the pageview's index, so a
 * click always belongs to a real pageview of a real session. Sites favour different links.
 */
export const outboundClicks: Derivation<OutboundClicks> = {
  name: 'outbound-clicks',
  derive({ seedHash, website, day, sessions }) {
    const site = websiteHash(website.id);
    const weights = OUTBOUND_LINKS.map((link, k) => link.weight * (0.4 + 1.2 * unit(seedHash, site, k, 0x0b)));
    const session: number[] = [];
    const page: number[] = [];
    const timeMs: number[] = [];
    const link: number[] = [];
    const dayEnd = (day + 1) * DAY_MS;
    for (let i = 0; i < sessions.count; i++) {
      let at = sessions.startMs[i] as number;
      const end = sessions.pageOffsets[i + 1] as number;
      for (let p = sessions.pageOffsets[i] as number; p < end; p++) {
        const seconds = sessions.pageTimeS[p] as number;
        if (unit(seedHash, site, day, p, 0x0c) < CLICK_SHARE) {
          session.push(i);
          page.push(p);
          timeMs.push(Math.min(dayEnd - 1, at + Math.floor(seconds * 1000 * unit(seedHash, site, day, p, 0x0e))));
          link.push(pickWeighted(weights, unit(seedHash, site, day, p, 0x0d)));
        }
        at += seconds * 1000;
      }
    }
    return {
      count: session.length,
      session: Uint32Array.from(session),
      page: Uint32Array.from(page),
      timeMs: Float64Array.from(timeMs),
      link: Uint8Array.from(link),
    };
  },
};
