import type { Derivation } from '../../traffic-cache.js';
import type { DeviceDetails, Dictionaries } from '../traffic.js';
import { mix, pickWeighted, unit } from '../hash.js';
import { websiteHash } from '../identity.js';

/**
 * Derives a generated day's {@link DeviceDetails}: per visitor, a pure function of (seed,
 * website, visitor, the visitor's sampled attributes), so one visitor keeps the same browser
 * version and viewport on every day, and every type sees the same values.
 */
export type { DeviceDetails };

type Weighted = readonly (readonly [value: string, weight: number])[];

const BROWSER_VERSIONS: Readonly<Record<string, Weighted>> = {
  Chrome: [['136.0.0.0', 38], ['135.0.0.0', 30], ['134.0.0.0', 14], ['133.0.0.0', 8], ['131.0.0.0', 6], ['120.0.0.0', 4]],
  Safari: [['18.4', 40], ['18.3', 24], ['18.1', 12], ['17.6', 14], ['16.6', 10]],
  Edge: [['136.0.0.0', 48], ['135.0.0.0', 34], ['134.0.0.0', 18]],
  Firefox: [['138.0', 42], ['137.0', 30], ['128.0', 18], ['115.0', 10]],
  'Samsung Internet': [['28.0', 46], ['27.0', 36], ['26.0', 18]],
  Opera: [['119.0.0.0', 55], ['118.0.0.0', 45]],
  Brave: [['136.1.78.97', 60], ['135.1.77.100', 40]],
  Vivaldi: [['7.4.3684.38', 58], ['7.3.3635.12', 42]],
};

const OS_VERSIONS: Readonly<Record<string, Weighted>> = {
  Windows: [['10', 58], ['11', 42]],
  macOS: [['10.15.7', 92], ['14.6', 5], ['13.6', 3]],
  iOS: [['18.4', 38], ['18.3', 24], ['17.7', 22], ['16.7', 16]],
  Android: [['15', 34], ['14', 32], ['13', 20], ['12', 14]],
  ChromeOS: [['16181.61.0', 70], ['16093.68.0', 30]],
  Linux: [['', 1]],
};

/** Pixels of browser chrome (tabs, address bar, system bars) above and below the viewport. */
const CHROME_HEIGHTS: Readonly<Record<string, readonly number[]>> = {
  desktop: [79, 87, 111, 121, 133],
  mobile: [104, 136, 152, 178],
  tablet: [70, 86, 98],
};

const TERMS: Readonly<Record<string, readonly string[]>> = {
  cpc: ['web analytics', 'privacy friendly analytics', 'google analytics alternative', 'cookieless analytics', 'website traffic tool', 'gdpr analytics'],
  paid_social: ['lookalike_1pct', 'retargeting_30d', 'interest_developers', 'interest_marketing'],
};

const CONTENTS: Readonly<Record<string, readonly string[]>> = {
  cpc: ['ad_variant_a', 'ad_variant_b', 'sitelink'],
  email: ['header_cta', 'hero_image', 'inline_link', 'footer_link'],
  social: ['post', 'thread', 'bio_link'],
  paid_social: ['carousel', 'single_image', 'video_ad'],
  video: ['description_link', 'pinned_comment'],
  referral: ['launch_post', 'maker_comment'],
  affiliate: ['banner', 'text_link'],
};

const UNKNOWN_VERSION: Weighted = [['1.0', 1]];

function pick(list: Weighted, u: number): string {
  return (list[pickWeighted(list.map(([, w]) => w), u)] as readonly [string, number])[0];
}

function viewportOf(resolution: string, deviceType: string, h: number): string {
  const [w, hgt] = resolution.split('x').map(Number) as [number, number];
  const device = deviceType || 'desktop';
  const bars = CHROME_HEIGHTS[device] ?? (CHROME_HEIGHTS.desktop as readonly number[]);
  const bar = bars[mix(h, 3) % bars.length] as number;
  if (device === 'desktop' && unit(h, 4) < 0.3) {
    // A window that is not maximized: a narrower, shorter viewport in 10% steps.
    const share = 0.6 + 0.1 * (mix(h, 5) % 4);
    return `${Math.round(w * share)}x${Math.max(200, Math.round(hgt * share) - bar)}`;
  }
  return `${w}x${Math.max(200, hgt - bar)}`;
}

function createDerivation(dictionaries: Dictionaries): Derivation<DeviceDetails> {
  const values = dictionaries.values;
  return {
    name: 'device-details',
    derive({ seedHash, website, sessions }) {
      const site = websiteHash(website.id);
      const n = sessions.count;
      const browserVersion: string[] = new Array<string>(n);
      const osVersion: string[] = new Array<string>(n);
      const viewportSize: string[] = new Array<string>(n);
      const utmTerm: string[] = new Array<string>(n);
      const utmContent: string[] = new Array<string>(n);
      const { dims, visitor } = sessions;
      for (let i = 0; i < n; i++) {
        const v = visitor[i] as number;
        const browser = values.browser_name[dims.browser_name[i] as number] ?? '';
        const os = values.os_name[dims.os_name[i] as number] ?? '';
        browserVersion[i] = pick(BROWSER_VERSIONS[browser] ?? UNKNOWN_VERSION, unit(seedHash, site, v, 0xb1));
        osVersion[i] = pick(OS_VERSIONS[os] ?? UNKNOWN_VERSION, unit(seedHash, site, v, 0x05));
        const resolution = values.screen_resolution[dims.screen_resolution[i] as number] ?? '1920x1080';
        viewportSize[i] = viewportOf(resolution, values.device_type[dims.device_type[i] as number] ?? '', mix(seedHash, site, v, 0x7e));
        const campaign = dims.utm_campaign[i] as number;
        const medium = values.utm_medium[dims.utm_medium[i] as number] ?? '';
        const terms = medium === '' ? undefined : TERMS[medium];
        const contents = medium === '' ? undefined : CONTENTS[medium];
        utmTerm[i] = terms ? (terms[mix(seedHash, site, v, campaign, 0x7a) % terms.length] as string) : '';
        utmContent[i] = contents ? (contents[mix(seedHash, site, v, campaign, 0xc0) % contents.length] as string) : '';
      }
      return { browserVersion, osVersion, viewportSize, utmTerm, utmContent };
    },
  };
}

const derivations = new WeakMap<Dictionaries, Derivation<DeviceDetails>>();

/**
 * The derivation of {@link DeviceDetails} over a world's dictionaries (the same object for the
 * same dictionaries, so `ctx.traffic.derived` memoizes it per website and day).
 */
export function deviceDetailsOf(dictionaries: Dictionaries): Derivation<DeviceDetails> {
  let derivation = derivations.get(dictionaries);
  if (!derivation) {
    derivation = createDerivation(dictionaries);
    derivations.set(dictionaries, derivation);
  }
  return derivation;
}
