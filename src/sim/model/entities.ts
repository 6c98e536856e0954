import type { Scope } from '../../contract/scopes.js';

/** An organization: owner of websites, links, monitors and API keys. */
export interface Organization {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** The billing plan: `free` lacks error tracking (402 FEATURE_UNAVAILABLE); absent counts as free. */
  readonly plan?: OrganizationPlan;
}

/** Billing plans, as the service names them. */
export type OrganizationPlan = 'free' | 'hobby' | 'pro' | 'scale';

/** How much traffic a website gets; drives the generator, not the API. */
export type TrafficSize = 'tiny' | 'small' | 'medium' | 'large' | 'huge';

/** A tracked website (SPEC 2.1), plus what the traffic generator needs to know about it. */
export interface Website {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly domain: string;
  readonly isPublic: boolean;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly size: TrafficSize;
  /** Mean sessions on an ordinary weekday before trend and seasonality. */
  readonly baseDailySessions: number;
  /** Epoch ms of the last management change; absent means `createdAt`. */
  readonly updatedAt?: number;
  /** The service's website status: ingestion refuses any but `ACTIVE` (absent means active). */
  readonly status?: 'ACTIVE' | 'INACTIVE';
  /**
   * Ingestion security settings: Origins allowed besides the domain and its subdomains (a
   * request without an Origin is then refused), and client IPs or IPv4 CIDR ranges allowed
   * (others are refused). Absent or empty: no such restriction.
   */
  readonly allowedOrigins?: readonly string[];
  readonly allowedIps?: readonly string[];
}

/** A dashboard user; signs in with a session cookie. */
export interface User {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly organizationIds: readonly string[];
  /** The organization a signed-in session acts for when a request names none. */
  readonly activeOrganizationId: string;
}

/** A short link; its clicks are queried with `link_id`. */
export interface ShortLink {
  readonly id: string;
  readonly organizationId: string;
  readonly slug: string;
  readonly targetUrl: string;
  /** Mean clicks a day. */
  readonly baseDailyClicks: number;
  readonly createdAt: number;
  /** The website the link belongs to (management reach of restricted keys); absent means none. */
  readonly websiteId?: string | null;
  /** A display title; absent means none. */
  readonly title?: string | null;
  /** Epoch ms of the last management change; absent means `createdAt`. */
  readonly updatedAt?: number;
}

/** An uptime monitor; its checks are queried with `schedule_id` (the monitor id). */
export interface UptimeMonitor {
  readonly id: string;
  readonly organizationId: string;
  /** The website the monitor watches, when it watches one of ours. */
  readonly websiteId: string | null;
  readonly name: string;
  readonly url: string;
  /** Seconds between two checks. */
  readonly intervalSeconds: number;
  readonly createdAt: number;
  /** Paused through the management routes; absent means running. */
  readonly paused?: boolean;
  /** Epoch ms of the last management change; absent means `createdAt`. */
  readonly updatedAt?: number;
}

/**
 * An API key as the simulator stores it: never the secret, only its SHA-256 hex hash and the
 * first 8 characters (`start`) for identification (SPEC 2.2).
 */
export interface ApiKeyRecord {
  readonly id: string;
  readonly name: string;
  readonly organizationId: string;
  readonly userId: string;
  /** The part of the secret before the underscore: `dbdy`. */
  readonly prefix: string;
  /** The first 8 characters of the secret. */
  readonly start: string;
  /** SHA-256 hex of the full secret. */
  readonly keyHash: string;
  readonly scopes: readonly Scope[];
  /** Website-specific access: the websites the key reaches. `null` means global access. */
  readonly websiteIds: readonly string[] | null;
  readonly enabled: boolean;
  /** Epoch ms, or null while the key is not revoked. */
  readonly revokedAt: number | null;
  /** Epoch ms, or null for a key that never expires. */
  readonly expiresAt: number | null;
  /** Whether the rolling per-key quota (SPEC 8.2.1) applies. */
  readonly rateLimitEnabled: boolean;
  /** Custom quota; null means the default of 300. */
  readonly rateLimitMax: number | null;
  /** Custom quota window in seconds; null means the default of 60. */
  readonly rateLimitTimeWindow: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * An organization's revenue configuration (the live `revenueConfig` row): the URL segment its
 * payment providers post webhooks to and the secrets that sign them. The service needs the
 * secrets themselves to verify a signature, so it keeps them as they are.
 */
export interface RevenueConfig {
  readonly organizationId: string;
  /** The `:hash` segment of `/webhooks/stripe/:hash` and `/webhooks/paddle/:hash`. */
  readonly webhookHash: string;
  /** Where revenue goes when the payment names no website of the organization; null: none set. */
  readonly websiteId: string | null;
  /** Stripe's endpoint signing secret (`whsec_…`); null: Stripe is not configured. */
  readonly stripeWebhookSecret: string | null;
  /** Paddle's notification secret key (`pdl_ntfset_…`); null: Paddle is not configured. */
  readonly paddleWebhookSecret: string | null;
}
