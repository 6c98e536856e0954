/**
 * What the ingestion service reads from a User-Agent header for an `events` row: the browser,
 * the operating system and the device type, named as the world's dictionaries name them
 * (Chrome, Safari, Edge, Firefox, Opera, Samsung Internet …; Windows, macOS, iOS, Android,
 * Linux, ChromeOS; desktop, mobile, tablet). Unknown parts are ''. Reads at most 512
 * characters, with patterns that do not backtrack.
 */
export interface ParsedUserAgent {
  readonly browser: string;
  readonly browserVersion: string;
  readonly os: string;
  readonly osVersion: string;
  readonly device: string;
}

/** Where each browser states its version. */
const BROWSER_VERSION: Readonly<Record<string, RegExp>> = {
  Edge: /\bEdg(?:e|A|iOS)?\/([\d.]{1,20})/,
  Opera: /\bOPR\/([\d.]{1,20})/,
  'Samsung Internet': /\bSamsungBrowser\/([\d.]{1,20})/,
  Vivaldi: /\bVivaldi\/([\d.]{1,20})/,
  Firefox: /\b(?:Firefox|FxiOS)\/([\d.]{1,20})/,
  Chrome: /\b(?:CriOS|Chrome)\/([\d.]{1,20})/,
  Safari: /\bVersion\/([\d.]{1,20})/,
};

/** Where each OS states its version (dots as the services print them). */
const OS_VERSION: Readonly<Record<string, RegExp>> = {
  Windows: /\bWindows NT ([\d.]{1,10})/,
  macOS: /\bMac OS X ([\d_.]{1,20})/,
  iOS: /\bOS ([\d_]{1,20}) like Mac OS X/,
  Android: /\bAndroid ([\d.]{1,20})/,
};

const BROWSER_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bBrave\b/, 'Brave'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\bChrome\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const OS_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/\bCrOS\b/, 'ChromeOS'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** Browser, OS and device type of a User-Agent header. */
export function parseUserAgent(userAgent: string): ParsedUserAgent {
  const ua = userAgent.slice(0, 512);
  const browser = BROWSER_PATTERNS.find(([pattern]) => pattern.test(ua))?.[1] ?? '';
  const os = OS_PATTERNS.find(([pattern]) => pattern.test(ua))?.[1] ?? '';
  const tablet = /\biPad\b|\bTablet\b/.test(ua) || (os === 'Android' && !/\bMobile\b/.test(ua));
  const device = ua === '' ? '' : tablet ? 'tablet' : /\bMobi|\biPhone\b/.test(ua) ? 'mobile' : 'desktop';
  const browserVersion = BROWSER_VERSION[browser]?.exec(ua)?.[1] ?? '';
  const rawOs = OS_VERSION[os]?.exec(ua)?.[1]?.replace(/_/g, '.') ?? '';
  const osVersion = os === 'Windows' ? (rawOs === '10.0' ? '10' : rawOs) : rawOs;
  return { browser, browserVersion, os, osVersion, device };
}
