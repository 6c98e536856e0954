/**
 * The browser, OS and device a User-Agent header names, in the words the query types use
 * (the seeded world's dictionaries: `Chrome`, `Samsung Internet`, `macOS`, `desktop` …). A small
 * reading of the common desktop and mobile browsers, not a full parser: what it does not
 * recognise stays ''. Reads at most the first 512 characters, with patterns that cannot
 * backtrack badly on hostile input.
 */

/** What a User-Agent says about the client. */
export interface UserAgentClient {
  readonly browserName: string;
  readonly browserVersion: string;
  readonly osName: string;
  readonly osVersion: string;
  /** `desktop`, `mobile` or `tablet`; '' for an empty User-Agent. */
  readonly deviceType: string;
}

const NONE: UserAgentClient = { browserName: '', browserVersion: '', osName: '', osVersion: '', deviceType: '' };

/** Browsers in the order they must be tested: those built on Chrome or Safari name them too. */
const BROWSERS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/([\d.]+)/],
  ['Opera', /\b(?:OPR|OPT|Opera)\/([\d.]+)/],
  ['Samsung Internet', /\bSamsungBrowser\/([\d.]+)/],
  ['Vivaldi', /\bVivaldi\/([\d.]+)/],
  ['Brave', /\bBrave(?:\/([\d.]+))?/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/([\d.]+)/],
  ['Safari', /\bVersion\/([\d.]+)[^]*?\bSafari\//],
];

/** Windows NT versions as the tracker's parser names them (10.0 covers Windows 10 and 11). */
const WINDOWS_VERSIONS: Readonly<Record<string, string>> = { '10.0': '10', '6.3': '8.1', '6.2': '8', '6.1': '7', '6.0': 'Vista' };

function osOf(ua: string): { osName: string; osVersion: string } {
  let m = /\bWindows NT ([\d.]+)/.exec(ua);
  if (m) return { osName: 'Windows', osVersion: WINDOWS_VERSIONS[m[1] as string] ?? (m[1] as string) };
  m = /\b(?:iPhone|iPad|iPod)\b[^)]*?\bOS (\d+(?:_\d+)*)/.exec(ua);
  if (m) return { osName: 'iOS', osVersion: (m[1] as string).replace(/_/g, '.') };
  m = /\bAndroid(?: ([\d.]+))?/.exec(ua);
  if (m) return { osName: 'Android', osVersion: m[1] ?? '' };
  m = /\bCrOS \S+ ([\d.]+)/.exec(ua);
  if (m) return { osName: 'ChromeOS', osVersion: m[1] as string };
  m = /\bMac OS X (\d+(?:[_.]\d+)*)/.exec(ua);
  if (m) return { osName: 'macOS', osVersion: (m[1] as string).replace(/_/g, '.') };
  if (/\bLinux\b/.test(ua)) return { osName: 'Linux', osVersion: '' };
  return { osName: '', osVersion: '' };
}

function deviceOf(ua: string, osName: string): string {
  if (/\biPad\b|\bTablet\b/i.test(ua) || (osName === 'Android' && !/\bMobile\b/.test(ua))) return 'tablet';
  if (/\bMobi|\biPhone\b|\biPod\b/.test(ua)) return 'mobile';
  return 'desktop';
}

/** What a User-Agent header names (see the module comment). */
export function parseUserAgent(userAgent: string): UserAgentClient {
  const ua = userAgent.slice(0, 512);
  if (ua.trim() === '') return NONE;
  let browserName = '';
  let browserVersion = '';
  for (const [name, pattern] of BROWSERS) {
    const m = pattern.exec(ua);
    if (m) {
      browserName = name;
      browserVersion = m[1] ?? '';
      break;
    }
  }
  const { osName, osVersion } = osOf(ua);
  return { browserName, browserVersion, osName, osVersion, deviceType: deviceOf(ua, osName) };
}
