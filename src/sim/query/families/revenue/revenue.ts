import { declareUnder, defineQueryType, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { datetime, int, intOrNull, num, numOrNull, text, textOrNull } from '../../engine/fields.js';
import { revenueDerivation } from '../../../model/derived/revenue.js';
import { aiProductOfReferrer } from '../../../model/derived/ai-referrals.js';
import { firstTouch, firstTouchLabel, isAttributedTransaction, ownField, providerOf, revenueBreakdown, type FirstTouchField, type Transaction } from './revenue-scan.js';
import { revenueOverviewRows } from './revenue-overview.js';
import { recentTransactionRows, revenueSeriesRows } from './revenue-rows.js';

/** The revenue family: its types read analytics.revenue, deriving revenueDerivation on each day of their range. */
const FAMILY: QueryFamilySpec = { name: 'revenue', table: 'analytics.revenue', derives: [revenueDerivation] };


/** The fields after a revenue breakdown's name: the group's totals in its currency and its share. */
const TOTALS_FIELDS = {
  currency: text("Currency"),
  revenue: num("Revenue"),
  transactions: int("Transactions"),
  customers: int("Customers"),
  percentage: numOrNull("Share", { unit: "%" }),
};

/** The filters of every revenue breakdown: the transaction's own fields and its first touch. */
const BREAKDOWN_FILTERS = ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"];

/**
 * A revenue breakdown by one first-touch dimension (revenue_by_country … revenue_by_entry_page):
 * rows of name (and the raw country for regions and cities), currency, revenue, transactions,
 * customers and percentage, with the live meta these builders share.
 */
function defineRevenueBreakdown(spec: {
  name: string;
  title: string;
  description: string;
  tags: string[];
  visualization?: string;
  withCountry?: boolean;
  customizable?: boolean;
  rows(ctx: RunContext): Row[];
}): QueryTypeDefinition {
  const country = spec.withCountry === true;
  return defineQueryType({
    name: spec.name,
    family: FAMILY,
    paging: 'self',
    filters: BREAKDOWN_FILTERS,
    customizable: spec.customizable ?? true,
    fields: {
      name: text("Name"),
      ...(country ? { country: text("Country") } : {}),
      ...TOTALS_FIELDS,
    },
    meta: {
      title: spec.title,
      description: spec.description,
      category: "Revenue",
      tags: spec.tags,
      default_visualization: spec.visualization ?? "table",
    },
    run: spec.rows,
  });
}

/**
 * A breakdown by one first-touch field of the transaction's visitor (revenue_by_country …):
 * named "Revenue by <title>", "Attributed revenue breakdown by <by>.", rows named by the field
 * (`fallback` when it has none), `limit` of them; regions and cities name their country too.
 */
function byFirstTouch(spec: {
  name: string;
  title: string;
  by: string;
  tags: string[];
  dimension: FirstTouchField;
  fallback: string;
  limit: number;
  withCountry?: boolean;
}): QueryTypeDefinition {
  const { dimension, fallback, limit } = spec;
  return defineRevenueBreakdown({
    name: spec.name,
    title: `Revenue by ${spec.title}`,
    description: `Attributed revenue breakdown by ${spec.by}.`,
    tags: ["revenue", ...spec.tags],
    ...(spec.withCountry === true ? { withCountry: true } : {}),
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
  category: "Revenue",
});

/** The live revenue builders. */
export const revenueTypes: QueryTypeDefinition[] = [
  defineRevenueType({
    name: 'revenue_overview',
    filters: ["currency", "provider", "product_id", "product_name", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"],
    customizable: false,
    fields: {
      currency: text("Currency"),
      total_revenue: numOrNull("Gross Revenue"),
      total_transactions: intOrNull("Payments"),
      refund_amount: numOrNull("Refund Amount"),
      refund_count: numOrNull("Refund Count"),
      subscription_revenue: numOrNull("Subscription Revenue"),
      subscription_count: numOrNull("Subscription Transactions"),
      sale_revenue: numOrNull("Sale Revenue"),
      sale_count: numOrNull("Sale Count"),
      unique_customers: numOrNull("Unique Customers"),
      attributed_transactions: numOrNull("Attributed Transactions"),
      attributed_revenue: numOrNull("Attributed Revenue"),
      payment_diagnostics_available: int("Payment Diagnostics Available", { description: "1 when Stripe payment diagnostics support the selected filters; otherwise 0." }),
      failed_payment_attempts: numOrNull("Failed Payment Attempts"),
      canceled_payment_attempts: numOrNull("Canceled Payment Attempts"),
      failed_payment_amount: numOrNull("Failed Payment Amount"),
      recovered_payment_attempts: numOrNull("Recovered Payment Attempts"),
      successful_payment_attempts: numOrNull("Successful Payment Attempts"),
      observed_failure_event_types: numOrNull("Observed Failure Event Types"),
      required_failure_event_types: intOrNull("Required Failure Event Types"),
      top_payment_failure_reason: textOrNull("Top Payment Failure Reason"),
      top_payment_cancellation_reason: textOrNull("Top Payment Cancellation Reason"),
      payment_failure_rate: numOrNull("Payment Failure Rate", { unit: "%" }),
    },
    meta: {
      title: "Revenue Overview",
      description: "Aggregate revenue, refund, subscription, and attribution totals.",
      tags: ["revenue", "overview", "summary"],
      default_visualization: "metric",
    },
    run(ctx) {
      return revenueOverviewRows(ctx);
    },
  }),
  defineRevenueType({
    name: 'revenue_time_series',
    filters: ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"],
    customizable: false,
    fields: {
      date: text("Date"),
      currency: text("Currency"),
      revenue: num("Revenue"),
      transactions: num("Transactions"),
      customers: num("Customers"),
      refund_amount: num("Refund Amount"),
      refund_count: num("Refund Count"),
      attributed_revenue: num("Attributed Revenue"),
      attributed_transactions: num("Attributed Transactions"),
    },
    meta: {
      title: "Revenue Time Series",
      description: "Daily revenue, transactions, customers, refunds, and attribution.",
      tags: ["revenue", "time-series", "trends"],
      default_visualization: "timeseries",
      supports_granularity: ["hour", "day"],
    },
    run(ctx) {
      return revenueSeriesRows(ctx);
    },
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_provider',
    title: "Revenue by Provider",
    description: "Revenue breakdown by payment provider.",
    tags: ["revenue", "provider"],
    customizable: false,
    rows: (ctx) => revenueBreakdown(ctx, { nameOf: (tx) => providerOf(tx) }),
  }),
  defineRevenueType({
    name: 'revenue_by_product',
    filters: ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path", "product_id", "product_name"],
    customizable: true,
    fields: {
      name: text("Product"),
      product_id: textOrNull("Product ID"),
      provider: text("Provider"),
      ...TOTALS_FIELDS,
    },
    meta: {
      title: "Revenue by Product",
      description: "Gross settled revenue grouped by recorded name, ID and provider, excluding refunds. Names may be payment descriptions rather than catalog products; a limited table cannot establish absence.",
      tags: ["revenue", "product"],
      default_visualization: "table",
    },
    run(ctx) {
      return revenueBreakdown(ctx, { nameOf: (tx) => ownField(tx, 'product_name') || 'Unknown', extra: (tx) => ({ product_id: ownField(tx, 'product_id') || null, provider: providerOf(tx) }), salesOnly: true, limit: 50 });
    },
  }),
  defineRevenueBreakdown({
    name: 'revenue_attribution_overview',
    title: "Revenue Attribution Overview",
    description: "Attributed vs unattributed revenue split.",
    tags: ["revenue", "attribution"],
    customizable: false,
    rows: (ctx) => revenueBreakdown(ctx, { nameOf: (tx) => (isAttributedTransaction(tx) ? 'Attributed' : 'Unattributed') }),
  }),
  byFirstTouch({ name: 'revenue_by_country', title: "Country", by: "country", tags: ["country", "geo"], dimension: 'country', fallback: 'Unknown', limit: 20 }),
  byFirstTouch({ name: 'revenue_by_region', title: "Region", by: "region/state", tags: ["region", "geo"], dimension: 'region', fallback: 'Unknown', limit: 20, withCountry: true }),
  byFirstTouch({ name: 'revenue_by_city', title: "City", by: "city", tags: ["city", "geo"], dimension: 'city', fallback: 'Unknown', limit: 20, withCountry: true }),
  byFirstTouch({ name: 'revenue_by_browser', title: "Browser", by: "browser", tags: ["browser"], dimension: 'browser_name', fallback: 'Unknown', limit: 10 }),
  byFirstTouch({ name: 'revenue_by_device', title: "Device", by: "device type", tags: ["device"], dimension: 'device_type', fallback: 'Unknown', limit: 10 }),
  byFirstTouch({ name: 'revenue_by_os', title: "OS", by: "operating system", tags: ["os"], dimension: 'os_name', fallback: 'Unknown', limit: 10 }),
  byFirstTouch({ name: 'revenue_by_referrer', title: "Referrer", by: "referrer domain", tags: ["referrer"], dimension: 'referrer', fallback: 'Direct', limit: 20 }),
  defineRevenueBreakdown({
    name: 'revenue_by_ai_product',
    title: "Revenue by AI Product",
    description: "Attributed revenue from visitors sent by AI products (ChatGPT, Claude, Perplexity and others) through referrals or their desktop app browser.",
    tags: ["revenue", "ai", "referrer", "chatgpt", "claude"],
    customizable: false,
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => aiProductOfReferrer(firstTouch(ctx, tx, 'referrer')), limit: 20 }),
  }),
  byFirstTouch({ name: 'revenue_by_utm_source', title: "UTM Source", by: "UTM source", tags: ["utm", "source"], dimension: 'utm_source', fallback: 'None', limit: 20 }),
  byFirstTouch({ name: 'revenue_by_utm_medium', title: "UTM Medium", by: "UTM medium", tags: ["utm", "medium"], dimension: 'utm_medium', fallback: 'None', limit: 20 }),
  byFirstTouch({ name: 'revenue_by_utm_campaign', title: "UTM Campaign", by: "UTM campaign", tags: ["utm", "campaign"], dimension: 'utm_campaign', fallback: 'None', limit: 20 }),
  byFirstTouch({ name: 'revenue_by_entry_page', title: "Entry Page", by: "entry page path", tags: ["entry", "page"], dimension: 'path', fallback: 'Unknown', limit: 20 }),
  defineRevenueType({
    name: 'recent_transactions',
    filters: ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"],
    customizable: true,
    fields: {
      transaction_id: text("Transaction ID"),
      provider: text("Provider"),
      type: text("Type"),
      amount: num("Amount"),
      currency: text("Currency"),
      anonymous_id: textOrNull("Anonymous ID"),
      product_name: textOrNull("Product"),
      created: datetime("Created"),
      is_attributed: int("Attributed"),
      attribution_method: text("Match Method"),
      unmatched_reason: text("Unmatched Reason"),
      country: text("Country"),
      browser_name: text("Browser"),
      device_type: text("Device"),
      referrer: text("Referrer"),
      utm_source: text("UTM Source"),
      utm_campaign: text("UTM Campaign"),
    },
    meta: {
      title: "Recent Transactions",
      description: "Most recent non-refund transactions with attribution context.",
      tags: ["revenue", "transactions", "recent"],
      default_visualization: "table",
    },
    run(ctx) {
      return recentTransactionRows(ctx, ctx.limit ?? 50);
    },
  }),
];
