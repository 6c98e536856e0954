import type { Derivation, DeriveInput } from '../../traffic-cache.js';
import { below, mix, unit } from '../hash.js';
import { websiteHash } from '../identity.js';

/**
 * Engagement of every pageview of a website's day, derived from that day's session samples: how
 * far the visitor scrolled, how often they interacted, rage and dead clicks with the control
 * involved, form use (started, submitted, abandoned and the field left on), active time and the
 * time to the first interaction. Columns are indexed like the session batch's page columns, so
 * pageview `p` of the batch has its engagement at index `p`.
 */

/** Controls that draw rage and dead clicks (CSS-like selectors, as the tracker reports them). */
export const CLICK_TARGETS: readonly string[] = [
  '',
  'button.add-to-cart',
  'a.nav-link',
  'div.product-image',
  'button.apply-coupon',
  'span.price',
  'button#checkout',
  'img.hero-banner',
  'a.pagination-next',
  'button.load-more',
  'label.size-option',
  'div.card-title',
  'button.submit',
];

/** Form fields a visitor can stop on (the tracker's `last_form_field`). */
export const FORM_FIELDS: readonly string[] = ['', 'email', 'password', 'name', 'phone', 'address', 'card_number', 'postal_code', 'message', 'company'];

/** The scroll-depth ranges of scroll_depth_distribution, shallowest first. */
export const SCROLL_RANGES = ['0-25%', '25-50%', '50-75%', '75-100%', '100%'] as const;

/** The range of a positive scroll depth (percent): below 25, 50, 75, 100, else '100%'. */
export function scrollRangeIndex(depth: number): number {
  return depth < 25 ? 0 : depth < 50 ? 1 : depth < 75 ? 2 : depth < 100 ? 3 : 4;
}

/** Engagement of one website's day, one entry per pageview of its session batch. */
export interface EngagementBatch {
  readonly websiteId: string;
  readonly day: number;
  /** Number of pageviews (the session batch's page columns). */
  readonly count: number;
  /** Max scroll depth in percent (1–100); 0 when the page reported none. */
  readonly scrollDepth: Uint8Array;
  /** Clicks, scrolls and key presses reported on page exit. */
  readonly interactions: Uint16Array;
  /** Seconds the tab was visible and focused (≤ time on page). */
  readonly activeS: Uint16Array;
  /** Milliseconds to the first interaction; 0 when there was none. */
  readonly firstInteractionMs: Uint32Array;
  readonly rageClicks: Uint8Array;
  /** Index into {@link CLICK_TARGETS}; 0 when there were no rage clicks. */
  readonly rageTarget: Uint8Array;
  readonly deadClicks: Uint8Array;
  /** Index into {@link CLICK_TARGETS}; 0 when there were no dead clicks. */
  readonly deadTarget: Uint8Array;
  /** Form fields focused; 0 when the page view touched no form. */
  readonly formFields: Uint8Array;
  /** 1 when the form was submitted. */
  readonly formSubmitted: Uint8Array;
  /** 1 when a form was started and left without submitting. */
  readonly formAbandoned: Uint8Array;
  /** Index into {@link FORM_FIELDS} of the field the visitor stopped on; 0 when not abandoned. */
  readonly lastField: Uint8Array;
}

/** A page's traits, the same on every day: how long it is, whether it has a form, how frustrating it is. */
function pageTraits(site: number, path: number): { formChance: number; frustration: number; target: number; field: number } {
  const hasForm = unit(site, path, 0xf0) < 0.3;
  return {
    formChance: hasForm ? 0.15 + 0.45 * unit(site, path, 0xf1) : 0,
    frustration: unit(site, path, 0xf2) < 0.2 ? 2 + 2 * unit(site, path, 0xf3) : 0.3 + 0.9 * unit(site, path, 0xf4),
    target: 1 + below(CLICK_TARGETS.length - 1, site, path, 0xf5),
    field: 1 + below(FORM_FIELDS.length - 1, site, path, 0xf6),
  };
}

function deriveEngagement({ seedHash, website, day, sessions }: DeriveInput): EngagementBatch {
  const site = mix(seedHash, websiteHash(website.id), 0xe6);
  const count = sessions.pageTimeS.length;
  const out = {
    scrollDepth: new Uint8Array(count),
    interactions: new Uint16Array(count),
    activeS: new Uint16Array(count),
    firstInteractionMs: new Uint32Array(count),
    rageClicks: new Uint8Array(count),
    rageTarget: new Uint8Array(count),
    deadClicks: new Uint8Array(count),
    deadTarget: new Uint8Array(count),
    formFields: new Uint8Array(count),
    formSubmitted: new Uint8Array(count),
    formAbandoned: new Uint8Array(count),
    lastField: new Uint8Array(count),
  };
  for (let i = 0; i < sessions.count; i++) {
    // A session scrolls in one habit: every page of it falls in the same depth range.
    const range = below(SCROLL_RANGES.length, site, day, i, 0x5c);
    const from = sessions.pageOffsets[i] as number;
    const to = sessions.pageOffsets[i + 1] as number;
    for (let p = from; p < to; p++) {
      const words = mix(site, day, i, p - from);
      const path = sessions.pagePaths[p] as number;
      const traits = pageTraits(site, path);
      const seconds = sessions.pageTimeS[p] as number;
      if (unit(words, 1) >= 0.04) {
        out.scrollDepth[p] = range === 4 ? 100 : range * 25 + (range === 0 ? 1 : 0) + below(range === 0 ? 24 : 25, words, 2);
      }
      const interactions = unit(words, 3) < 0.18 ? 0 : 1 + below(Math.min(60, 2 + Math.floor(seconds / 8)), words, 4);
      out.interactions[p] = interactions;
      out.activeS[p] = Math.round(seconds * (0.35 + 0.6 * unit(words, 5)));
      if (interactions > 0) out.firstInteractionMs[p] = 200 + Math.floor(unit(words, 6) * Math.min(seconds, 30) * 1000);
      if (unit(words, 7) < 0.012 * traits.frustration) {
        out.rageClicks[p] = 1 + below(3, words, 8);
        out.rageTarget[p] = unit(words, 9) < 0.7 ? traits.target : 1 + below(CLICK_TARGETS.length - 1, words, 10);
      }
      if (unit(words, 11) < 0.035 * traits.frustration) {
        out.deadClicks[p] = 1 + below(4, words, 12);
        out.deadTarget[p] = unit(words, 13) < 0.6 ? traits.target : 1 + below(CLICK_TARGETS.length - 1, words, 14);
      }
      if (unit(words, 15) < traits.formChance) {
        out.formFields[p] = 1 + below(5, words, 16);
        if (unit(words, 17) < 0.55) out.formSubmitted[p] = 1;
        else {
          out.formAbandoned[p] = 1;
          out.lastField[p] = unit(words, 18) < 0.6 ? traits.field : 1 + below(FORM_FIELDS.length - 1, words, 19);
        }
      }
    }
  }
  return { websiteId: website.id, day, count, ...out };
}

/** The engagement of a website's day: `ctx.traffic.derived(engagementDerivation, website, day)`. */
export const engagementDerivation: Derivation<EngagementBatch> = { name: 'engagement', derive: deriveEngagement };
