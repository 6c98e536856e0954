import type { Derivation, DeriveInput } from '../../traffic-cache.js';
import { websiteHash } from '../identity.js';
import { pickWeighted, unit } from '../hash.js';
import type { Dictionaries, EventPropertyShape } from '../traffic.js';
import { DAY_MS } from '../world.js';

/** One top-level property of a custom event: its key, its quote-trimmed value and its raw JSON text. */
export interface EventProperty {
  readonly key: string;
  /** The value as the service reads it after trimming JSON quotes (`google`, `29.99`, `true`). */
  readonly value: string;
  /** The raw JSON text of the value (`"google"`, `29.99`, `true`). */
  readonly raw: string;
}

/** What the session samples' custom events carry beyond name and time. */
export interface CustomEventDetails {
  /** Path code of the page each event fired on (the page being viewed at the event's time). */
  readonly pathCodes: Uint16Array;
  /** Properties of each event, in key order; empty for events sent without properties. */
  readonly properties: readonly (readonly EventProperty[])[];
}

type ValueRule =
  | { readonly kind: 'pick'; readonly values: readonly string[]; readonly weights?: readonly number[] }
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  | { readonly kind: 'money'; readonly min: number; readonly max: number }
  | { readonly kind: 'bool'; readonly trueShare: number }
  | { readonly kind: 'page' }
  | { readonly kind: 'date-after'; readonly days: number }
  | { readonly kind: 'id'; readonly prefix: string };

const pick = (values: readonly string[], weights?: readonly number[]): ValueRule => ({ kind: 'pick', values, ...(weights ? { weights } : {}) });

const PRODUCTS = [
  'classic-backpack', 'heavyweight-hoodie', 'canvas-sneakers', 'packable-rain-jacket', 'insulated-water-bottle',
  'burr-coffee-grinder', 'led-desk-lamp', 'wireless-headphones', 'dotted-notebook', 'cork-yoga-mat',
];

/**
 * The properties each generated event sends, by event name. Events not listed (and `login`,
 * `outbound_click`) send none, as a plain `track(name)` call does.
 */
const PROPERTY_RULES: Readonly<Record<string, readonly (readonly [key: string, rule: ValueRule])[]>> = {
  signup: [['method', pick(['email', 'google', 'github'], [5, 4, 2])], ['plan', pick(['free', 'pro', 'team'], [6, 3, 1])]],
  add_to_cart: [['product', pick(PRODUCTS)], ['price', { kind: 'money', min: 9, max: 199 }], ['quantity', { kind: 'int', min: 1, max: 3 }]],
  remove_from_cart: [['product', pick(PRODUCTS)]],
  begin_checkout: [['cart_value', { kind: 'money', min: 15, max: 420 }], ['items', { kind: 'int', min: 1, max: 6 }]],
  purchase: [
    ['order_id', { kind: 'id', prefix: 'ord_' }],
    ['order_value', { kind: 'money', min: 15, max: 420 }],
    ['currency', pick(['USD', 'EUR', 'GBP'], [6, 3, 1])],
    ['coupon_used', { kind: 'bool', trueShare: 0.2 }],
  ],
  newsletter_subscribe: [['location', pick(['footer', 'popup', 'blog_post'], [5, 3, 2])]],
  cta_click: [['label', pick(['Get started', 'Start free trial', 'Book a demo', 'See pricing'], [5, 3, 1, 2])], ['page', { kind: 'page' }]],
  video_play: [['video_id', pick(['intro', 'product-tour', 'customer-story', 'webinar-recap'], [6, 4, 2, 1])], ['autoplay', { kind: 'bool', trueShare: 0.1 }]],
  download: [['file', pick(['/downloads/whitepaper.pdf', '/downloads/media-kit.zip', '/downloads/pricing.pdf'], [4, 1, 3])]],
  search: [['query_length', { kind: 'int', min: 2, max: 40 }], ['results', { kind: 'int', min: 0, max: 50 }]],
  share: [['channel', pick(['twitter', 'linkedin', 'email', 'copy_link'], [3, 3, 1, 4])]],
  copy_code: [['language', pick(['typescript', 'bash', 'python', 'json'], [6, 4, 2, 1])]],
  feedback_submitted: [['rating', { kind: 'int', min: 1, max: 5 }]],
  project_created: [['template', pick(['blank', 'nextjs', 'astro', 'remix'], [4, 5, 2, 1])]],
  invite_sent: [['role', pick(['admin', 'member', 'viewer'], [1, 6, 3])]],
  trial_started: [['plan', pick(['pro', 'team'], [4, 1])], ['trial_ends', { kind: 'date-after', days: 14 }]],
  demo_requested: [['company_size', pick(['1-10', '11-50', '51-200', '201-1000', '1000+'], [3, 4, 3, 2, 1])]],
  form_submit: [['form_id', pick(['contact', 'newsletter', 'waitlist'], [4, 3, 2])], ['success', { kind: 'bool', trueShare: 0.95 }]],
};

const NO_PROPERTIES: readonly EventProperty[] = [];

/** The value rule of a declared property shape. */
function ruleOf(shape: EventPropertyShape): ValueRule {
  if (typeof shape.type !== 'string') return pick(shape.type);
  if (shape.type === 'number') return { kind: 'int', min: 1, max: 100 };
  if (shape.type === 'boolean') return { kind: 'bool', trueShare: 0.5 };
  return { kind: 'id', prefix: `${shape.key}_` };
}

/** The property rules of a world: its declared events' over the built-in ones of the same name. */
function rulesOf(dictionaries: Dictionaries): Readonly<Record<string, readonly (readonly [key: string, rule: ValueRule])[]>> {
  const declared = dictionaries.eventProperties;
  if (declared === undefined) return PROPERTY_RULES;
  const rules: Record<string, readonly (readonly [string, ValueRule])[]> = { ...PROPERTY_RULES };
  for (const [name, shapes] of Object.entries(declared)) rules[name] = shapes.map((shape) => [shape.key, ruleOf(shape)] as const);
  return rules;
}

function quoted(value: string): Omit<EventProperty, 'key'> {
  return { value, raw: JSON.stringify(value) };
}

/** The value of one property: a pure function of the draw `u`, the event's time and page, and its index. */
function valueOf(rule: ValueRule, u: number, timeMs: number, page: string, id: number): Omit<EventProperty, 'key'> {
  switch (rule.kind) {
    case 'pick':
      return quoted(rule.values[pickWeighted(rule.weights ?? rule.values.map(() => 1), u)] ?? '');
    case 'int': {
      const n = String(rule.min + Math.floor(u * (rule.max - rule.min + 1)));
      return { value: n, raw: n };
    }
    case 'money': {
      const n = String(Math.floor(rule.min + u * (rule.max - rule.min)) + 0.99);
      return { value: n, raw: n };
    }
    case 'bool': {
      const b = u < rule.trueShare ? 'true' : 'false';
      return { value: b, raw: b };
    }
    case 'page':
      return quoted(page);
    case 'date-after':
      return quoted(new Date(Math.floor(timeMs / DAY_MS) * DAY_MS + rule.days * DAY_MS).toISOString().slice(0, 10));
    case 'id':
      return quoted(`${rule.prefix}${id.toString(36).padStart(7, '0')}`);
  }
}

/** The index of the pageview of session `i` that was on screen at `timeMs`. */
function pageAt(input: DeriveInput, i: number, timeMs: number): number {
  const { sessions } = input;
  const first = sessions.pageOffsets[i] as number;
  const last = (sessions.pageOffsets[i + 1] as number) - 1;
  let at = sessions.startMs[i] as number;
  for (let p = first; p < last; p++) {
    at += (sessions.pageTimeS[p] as number) * 1000;
    if (timeMs < at) return p;
  }
  return last;
}

const derivations = new WeakMap<Dictionaries, Derivation<CustomEventDetails>>();

/**
 * The page and properties of every custom event of a day's sessions, as a derivation over the
 * world's dictionaries (event names and paths by code). Each property value is a pure function
 * of the seed, the website, the day, the event's index and the key, so every query type reading
 * properties sees the same values.
 */
export function customEventDetails(dictionaries: Dictionaries): Derivation<CustomEventDetails> {
  let derivation = derivations.get(dictionaries);
  if (!derivation) {
    const propertyRules = rulesOf(dictionaries);
    derivation = {
      name: 'custom-event-details',
      derive(input) {
        const { sessions, seedHash, day } = input;
        const { event_name: names, path: paths } = dictionaries.values;
        const site = websiteHash(input.website.id);
        const total = sessions.eventOffsets[sessions.count] as number;
        const pathCodes = new Uint16Array(total);
        const properties: (readonly EventProperty[])[] = new Array<readonly EventProperty[]>(total).fill(NO_PROPERTIES);
        for (let i = 0; i < sessions.count; i++) {
          const end = sessions.eventOffsets[i + 1] as number;
          for (let e = sessions.eventOffsets[i] as number; e < end; e++) {
            const timeMs = sessions.eventTimeMs[e] as number;
            const path = sessions.pagePaths[pageAt(input, i, timeMs)] as number;
            pathCodes[e] = path;
            const name = names[sessions.eventNames[e] as number] ?? '';
            const rules = Object.hasOwn(propertyRules, name) ? propertyRules[name] : undefined;
            if (!rules) continue;
            properties[e] = rules.map(([key, rule], k) => ({
              key,
              ...valueOf(rule, unit(seedHash, site, day, e, k, 0xce), timeMs, paths[path] ?? '/', mixId(seedHash, site, day, e)),
            }));
          }
        }
        return { pathCodes, properties };
      },
    };
    derivations.set(dictionaries, derivation);
  }
  return derivation;
}

function mixId(seedHash: number, site: number, day: number, event: number): number {
  return Math.floor(unit(seedHash, site, day, event, 0x1d) * 78_364_164_096);
}

/** The JSON text of a property list, as the event's `properties` column holds it (`{}` when empty). */
export function propertiesJson(properties: readonly EventProperty[]): string {
  return `{${properties.map((p) => `${JSON.stringify(p.key)}:${p.raw}`).join(',')}}`;
}
