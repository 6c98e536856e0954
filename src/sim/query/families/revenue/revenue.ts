import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, defineQueryType, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { revenueDerivation } from '../../../model/derived/revenue.js';
import { aiProductOfReferrer } from '../../../model/derived/ai-referrals.js';
import { firstTouch, firstTouchLabel, isAttributedTransaction, ownField, providerOf, revenueBreakdown, type FirstTouchField, type Transaction } from './revenue-scan.js';
import { revenueOverviewRows } from './revenue-overview.js';
import { recentTransactionRows, revenueSeriesRows } from './revenue-rows.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import catalogue from './revenue-catalogue.json' with { type: 'json' };

/**
 * The revenue family: its types read analytics.revenue, deriving revenueDerivation on each day of
 * their range; their fields and meta are in revenue-catalogue.json.
 */
const FAMILY: QueryFamilySpec = { name: 'revenue', table: 'analytics.revenue', derives: [revenueDerivation], catalogue: readCatalogue('revenue', catalogue) };

/** The filters of every revenue breakdown: the transaction's own fields and its first touch. */
const BREAKDOWN_FILTERS = ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"];

/**
 * A revenue breakdown by one first-touch dimension (revenue_by_country … revenue_by_entry_page):
 * rows of name (and the raw country for regions and cities), currency, revenue, transactions,
 * customers and percentage, paged by itself; its fields and meta are in revenue-catalogue.json.
 * Its rows are made in pieces ({@link PassSteps}).
 */
function defineRevenueBreakdown(spec: { name: string; customizable?: boolean; rows(ctx: RunContext): PassSteps<Row[]> }): QueryTypeDefinition {
  return defineQueryType({
    name: spec.name,
    family: FAMILY,
    paging: 'self',
    filters: BREAKDOWN_FILTERS,
    customizable: spec.customizable ?? true,
    steps: spec.rows,
  });
}

/**
 * A breakdown by one first-touch field of the transaction's visitor (revenue_by_country …): rows
 * named by the field (`fallback` when it has none), `limit` of them; regions and cities name
 * their country too.
 */
function byFirstTouch(spec: { name: string; dimension: FirstTouchField; fallback: string; limit: number; withCountry?: boolean }): QueryTypeDefinition {
  const { dimension, fallback, limit } = spec;
  return defineRevenueBreakdown({
    name: spec.name,
    rows: (ctx) =>
      revenueBreakdown(ctx, {
        nameOf: (tx) => firstTouchLabel(ctx, tx, dimension, fallback),
        ...(spec.withCountry === true ? { extra: (tx: Transaction) => ({ country: firstTouch(ctx, tx, 'country') }) } : {}),
        limit,
      }),
  });
}

/** What every revenue declaration below shares. */
const defineRevenueType = declareUnder({
  family: FAMILY,
  paging: 'self',
});

/** The live revenue builders. */
export const revenueTypes: QueryTypeDefinition[] = [
  defineRevenueType({
    name: 'revenue_overview',
    filters: ["currency", "provider", "product_id", "product_name", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"],
    customizable: false,
    steps: revenueOverviewRows,
  }),
  defineRevenueType({
    name: 'revenue_time_series',
    filters: ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"],
    customizable: false,
    steps: revenueSeriesRows,
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_provider',
    customizable: false,
    rows: (ctx) => revenueBreakdown(ctx, { nameOf: (tx) => providerOf(tx) }),
  }),
  defineRevenueType({
    name: 'revenue_by_product',
    filters: ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path", "product_id", "product_name"],
    customizable: true,
    steps(ctx) {
      return revenueBreakdown(ctx, { nameOf: (tx) => ownField(tx, 'product_name') || 'Unknown', extra: (tx) => ({ product_id: ownField(tx, 'product_id') || null, provider: providerOf(tx) }), salesOnly: true, limit: 50 });
    },
  }),
  defineRevenueBreakdown({
    name: 'revenue_attribution_overview',
    customizable: false,
    rows: (ctx) => revenueBreakdown(ctx, { nameOf: (tx) => (isAttributedTransaction(tx) ? 'Attributed' : 'Unattributed') }),
  }),
  byFirstTouch({ name: 'revenue_by_country', dimension: 'country', fallback: 'Unknown', limit: 20 }),
  byFirstTouch({ name: 'revenue_by_region', dimension: 'region', fallback: 'Unknown', limit: 20, withCountry: true }),
  byFirstTouch({ name: 'revenue_by_city', dimension: 'city', fallback: 'Unknown', limit: 20, withCountry: true }),
  byFirstTouch({ name: 'revenue_by_browser', dimension: 'browser_name', fallback: 'Unknown', limit: 10 }),
  byFirstTouch({ name: 'revenue_by_device', dimension: 'device_type', fallback: 'Unknown', limit: 10 }),
  byFirstTouch({ name: 'revenue_by_os', dimension: 'os_name', fallback: 'Unknown', limit: 10 }),
  byFirstTouch({ name: 'revenue_by_referrer', dimension: 'referrer', fallback: 'Direct', limit: 20 }),
  defineRevenueBreakdown({
    name: 'revenue_by_ai_product',
    customizable: false,
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => aiProductOfReferrer(firstTouch(ctx, tx, 'referrer')), limit: 20 }),
  }),
  byFirstTouch({ name: 'revenue_by_utm_source', dimension: 'utm_source', fallback: 'None', limit: 20 }),
  byFirstTouch({ name: 'revenue_by_utm_medium', dimension: 'utm_medium', fallback: 'None', limit: 20 }),
  byFirstTouch({ name: 'revenue_by_utm_campaign', dimension: 'utm_campaign', fallback: 'None', limit: 20 }),
  byFirstTouch({ name: 'revenue_by_entry_page', dimension: 'path', fallback: 'Unknown', limit: 20 }),
  defineRevenueType({
    name: 'recent_transactions',
    filters: ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"],
    customizable: true,
    steps(ctx) {
      return recentTransactionRows(ctx, ctx.limit ?? 50);
    },
  }),
];
