import type { Dictionaries, DictionaryName } from '../model/traffic.js';
import { withRoom } from '../model/typed-arrays.js';

/**
 * The world's string tables, grown by what ingestion brings (a new path, referrer, language …):
 * the query families decode every code through {@link IngestDictionaries.current}, which keeps
 * every code of the world's tables and adds the new values after them. Values are registered
 * when a request is accepted, in request order, so the same requests give the same codes.
 *
 * Bounded: a table holds at most {@link MAX_DICTIONARY_VALUES} values (codes are 16-bit); past
 * that, a new value is coded as {@link OVERFLOW_VALUE}.
 */
export interface IngestDictionaries {
  /** The tables as of now (a new object after each growth; codes never change). */
  current(): Dictionaries;
  /** The code of `value` in table `name`, registering it when new. */
  codeOf(name: DictionaryName, value: string, country?: string): number;
}

/** Values a table holds at most (its codes are Uint16). */
export const MAX_DICTIONARY_VALUES = 65_535;

/** What a value past a full table is coded as. */
export const OVERFLOW_VALUE = '(other)';

/** Source type of a new referrer: search engines, social networks and mail by host, else Referral. */
function sourceTypeOf(referrer: string, sourceTypes: readonly string[]): number {
  let host = '';
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return Math.max(0, sourceTypes.indexOf('Referral'));
  }
  const type = /(^|\.)(google|bing|duckduckgo|yahoo|ecosia|yandex|baidu|brave|startpage|qwant)\./.test(host)
    ? 'Search'
    : /(^|\.)(facebook|instagram|linkedin|reddit|pinterest|tiktok|youtube|t\.co|twitter|x\.com|threads|mastodon|bsky)/.test(host)
      ? 'Social'
      : /(^|\.)(mail|outlook|gmail)\./.test(host)
        ? 'Email'
        : 'Referral';
  return Math.max(0, sourceTypes.indexOf(type));
}

/** Tables that start as the world's. */
export function createIngestDictionaries(base: Dictionaries): IngestDictionaries {
  const values = {} as Record<DictionaryName, string[]>;
  for (const name of Object.keys(base.values) as DictionaryName[]) values[name] = base.values[name].slice();
  const indexes = new Map<DictionaryName, Map<string, number>>();
  let regionCountry = base.regionCountry.slice();
  let cityRegion = base.cityRegion.slice();
  let referrerSourceType = base.referrerSourceType.slice();
  const countryNames = base.countryNames.slice();
  let snapshot: Dictionaries | null = base;

  function indexOf(name: DictionaryName): Map<string, number> {
    let index = indexes.get(name);
    if (!index) {
      index = new Map();
      values[name].forEach((value, code) => {
        if (!index?.has(value)) index?.set(value, code);
      });
      indexes.set(name, index);
    }
    return index;
  }

  function register(name: DictionaryName, value: string, country: string): number {
    const index = indexOf(name);
    const found = index.get(value);
    if (found !== undefined) return found;
    const list = values[name];
    if (list.length >= MAX_DICTIONARY_VALUES) return value === OVERFLOW_VALUE ? 0 : register(name, OVERFLOW_VALUE, country);
    const code = list.length;
    list.push(value);
    index.set(value, code);
    snapshot = null;
    if (name === 'country') countryNames[code] = value;
    if (name === 'region') {
      regionCountry = withRoom(regionCountry, code + 1);
      regionCountry[code] = register('country', value === '' ? '' : country, '');
    }
    if (name === 'city') {
      cityRegion = withRoom(cityRegion, code + 1);
      cityRegion[code] = register('region', '', country);
    }
    if (name === 'referrer') {
      referrerSourceType = withRoom(referrerSourceType, code + 1);
      referrerSourceType[code] = value === '' ? 0 : sourceTypeOf(value, base.sourceTypes);
    }
    return code;
  }

  return {
    current() {
      snapshot ??= { ...base, values, regionCountry, cityRegion, countryNames, referrerSourceType };
      return snapshot;
    },
    codeOf: (name, value, country = '') => register(name, value, country),
  };
}
