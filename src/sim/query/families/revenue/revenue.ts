import { defineQueryType, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { revenueDerivation } from '../../../model/derived/revenue.js';
import { aiProductOfReferrer } from '../../../model/derived/ai-referrals.js';
import { firstTouch, firstTouchLabel, isAttributedTransaction, ownField, providerOf, revenueBreakdown } from './revenue-scan.js';
import { revenueOverviewRows } from './revenue-overview.js';
import { recentTransactionRows, revenueSeriesRows } from './revenue-rows.js';

/** The revenue family: its types read analytics.revenue, deriving revenueDerivation on each day of their range. */
const FAMILY: QueryFamilySpec = { name: 'revenue', table: 'analytics.revenue', derives: [revenueDerivation] };


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
      name: 'string',
      ...(country ? { country: 'string' as const } : {}),
      currency: 'string',
      revenue: 'number',
      transactions: 'integer',
      customers: 'integer',
      percentage: 'number?',
    },
    meta: {
      title: spec.title,
      description: spec.description,
      category: "Revenue",
      tags: spec.tags,
      output_fields: [
        { name: "name", type: "string", label: "Name" },
        ...(country ? [{ name: "country", type: "string", label: "Country" }] : []),
        { name: "currency", type: "string", label: "Currency" },
        { name: "revenue", type: "number", label: "Revenue" },
        { name: "transactions", type: "number", label: "Transactions" },
        { name: "customers", type: "number", label: "Customers" },
        { name: "percentage", type: "number", label: "Share", unit: "%" },
      ],
      default_visualization: spec.visualization ?? "table",
    },
    run: spec.rows,
  });
}

/** The live revenue builders. */
export const revenueTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'revenue_overview',
    family: FAMILY,
    paging: 'self',
    filters: ["currency", "provider", "product_id", "product_name", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"],
    customizable: false,
    fields: {
      currency: 'string',
      total_revenue: 'number?',
      total_transactions: 'integer?',
      refund_amount: 'number?',
      refund_count: 'number?',
      subscription_revenue: 'number?',
      subscription_count: 'number?',
      sale_revenue: 'number?',
      sale_count: 'number?',
      unique_customers: 'number?',
      attributed_transactions: 'number?',
      attributed_revenue: 'number?',
      payment_diagnostics_available: 'integer',
      failed_payment_attempts: 'number?',
      canceled_payment_attempts: 'number?',
      failed_payment_amount: 'number?',
      recovered_payment_attempts: 'number?',
      successful_payment_attempts: 'number?',
      observed_failure_event_types: 'number?',
      required_failure_event_types: 'integer?',
      top_payment_failure_reason: 'string?',
      top_payment_cancellation_reason: 'string?',
      payment_failure_rate: 'number?',
    },
    meta: {
      title: "Revenue Overview",
      description: "Aggregate revenue, refund, subscription, and attribution totals.",
      category: "Revenue",
      tags: ["revenue", "overview", "summary"],
      output_fields: [
        { name: "currency", type: "string", label: "Currency" },
        { name: "total_revenue", type: "number", label: "Gross Revenue" },
        { name: "total_transactions", type: "number", label: "Payments" },
        { name: "refund_amount", type: "number", label: "Refund Amount" },
        { name: "refund_count", type: "number", label: "Refund Count" },
        { name: "subscription_revenue", type: "number", label: "Subscription Revenue" },
        { name: "subscription_count", type: "number", label: "Subscription Transactions" },
        { name: "sale_revenue", type: "number", label: "Sale Revenue" },
        { name: "sale_count", type: "number", label: "Sale Count" },
        { name: "unique_customers", type: "number", label: "Unique Customers" },
        { name: "attributed_transactions", type: "number", label: "Attributed Transactions" },
        { name: "attributed_revenue", type: "number", label: "Attributed Revenue" },
        { name: "payment_diagnostics_available", type: "number", label: "Payment Diagnostics Available", description: "1 when Stripe payment diagnostics support the selected filters; otherwise 0." },
        { name: "failed_payment_attempts", type: "number", label: "Failed Payment Attempts" },
        { name: "canceled_payment_attempts", type: "number", label: "Canceled Payment Attempts" },
        { name: "failed_payment_amount", type: "number", label: "Failed Payment Amount" },
        { name: "recovered_payment_attempts", type: "number", label: "Recovered Payment Attempts" },
        { name: "successful_payment_attempts", type: "number", label: "Successful Payment Attempts" },
        { name: "observed_failure_event_types", type: "number", label: "Observed Failure Event Types" },
        { name: "required_failure_event_types", type: "number", label: "Required Failure Event Types" },
        { name: "top_payment_failure_reason", type: "string", label: "Top Payment Failure Reason" },
        { name: "top_payment_cancellation_reason", type: "string", label: "Top Payment Cancellation Reason" },
        { name: "payment_failure_rate", type: "number", label: "Payment Failure Rate", unit: "%" },
      ],
      default_visualization: "metric",
    },
    run(ctx) {
      return revenueOverviewRows(ctx);
    },
  }),
  defineQueryType({
    name: 'revenue_time_series',
    family: FAMILY,
    paging: 'self',
    filters: ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"],
    customizable: false,
    fields: {
      date: 'string',
      currency: 'string',
      revenue: 'number',
      transactions: 'number',
      customers: 'number',
      refund_amount: 'number',
      refund_count: 'number',
      attributed_revenue: 'number',
      attributed_transactions: 'number',
    },
    meta: {
      title: "Revenue Time Series",
      description: "Daily revenue, transactions, customers, refunds, and attribution.",
      category: "Revenue",
      tags: ["revenue", "time-series", "trends"],
      output_fields: [
        { name: "date", type: "string", label: "Date" },
        { name: "currency", type: "string", label: "Currency" },
        { name: "revenue", type: "number", label: "Revenue" },
        { name: "transactions", type: "number", label: "Transactions" },
        { name: "customers", type: "number", label: "Customers" },
        { name: "refund_amount", type: "number", label: "Refund Amount" },
        { name: "refund_count", type: "number", label: "Refund Count" },
        { name: "attributed_revenue", type: "number", label: "Attributed Revenue" },
        { name: "attributed_transactions", type: "number", label: "Attributed Transactions" },
      ],
      default_visualization: "timeseries",
      supports_granularity: ["hour", "day"],
    },
    run(ctx) {
      return revenueSeriesRows(ctx);
    },
  }),
  defineQueryType({
    name: 'revenue_by_provider',
    family: FAMILY,
    paging: 'self',
    filters: ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"],
    customizable: false,
    fields: {
      name: 'string',
      currency: 'string',
      revenue: 'number',
      transactions: 'integer',
      customers: 'integer',
      percentage: 'number?',
    },
    meta: {
      title: "Revenue by Provider",
      description: "Revenue breakdown by payment provider.",
      category: "Revenue",
      tags: ["revenue", "provider"],
      output_fields: [
        { name: "name", type: "string", label: "Name" },
        { name: "currency", type: "string", label: "Currency" },
        { name: "revenue", type: "number", label: "Revenue" },
        { name: "transactions", type: "number", label: "Transactions" },
        { name: "customers", type: "number", label: "Customers" },
        { name: "percentage", type: "number", label: "Share", unit: "%" },
      ],
      default_visualization: "table",
    },
    run(ctx) {
      return revenueBreakdown(ctx, { nameOf: (tx) => providerOf(tx) });
    },
  }),
  defineQueryType({
    name: 'revenue_by_product',
    family: FAMILY,
    paging: 'self',
    filters: ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path", "product_id", "product_name"],
    customizable: true,
    fields: {
      name: 'string',
      product_id: 'string?',
      provider: 'string',
      currency: 'string',
      revenue: 'number',
      transactions: 'integer',
      customers: 'integer',
      percentage: 'number?',
    },
    meta: {
      title: "Revenue by Product",
      description: "Gross settled revenue grouped by recorded name, ID and provider, excluding refunds. Names may be payment descriptions rather than catalog products; a limited table cannot establish absence.",
      category: "Revenue",
      tags: ["revenue", "product"],
      output_fields: [
        { name: "name", type: "string", label: "Product" },
        { name: "product_id", type: "string", label: "Product ID" },
        { name: "provider", type: "string", label: "Provider" },
        { name: "currency", type: "string", label: "Currency" },
        { name: "revenue", type: "number", label: "Revenue" },
        { name: "transactions", type: "number", label: "Transactions" },
        { name: "customers", type: "number", label: "Customers" },
        { name: "percentage", type: "number", label: "Share", unit: "%" },
      ],
      default_visualization: "table",
    },
    run(ctx) {
      return revenueBreakdown(ctx, { nameOf: (tx) => ownField(tx, 'product_name') || 'Unknown', extra: (tx) => ({ product_id: ownField(tx, 'product_id') || null, provider: providerOf(tx) }), salesOnly: true, limit: 50 });
    },
  }),
  defineQueryType({
    name: 'revenue_attribution_overview',
    family: FAMILY,
    paging: 'self',
    filters: ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"],
    customizable: false,
    fields: {
      name: 'string',
      currency: 'string',
      revenue: 'number',
      transactions: 'integer',
      customers: 'integer',
      percentage: 'number?',
    },
    meta: {
      title: "Revenue Attribution Overview",
      description: "Attributed vs unattributed revenue split.",
      category: "Revenue",
      tags: ["revenue", "attribution"],
      output_fields: [
        { name: "name", type: "string", label: "Name" },
        { name: "currency", type: "string", label: "Currency" },
        { name: "revenue", type: "number", label: "Revenue" },
        { name: "transactions", type: "number", label: "Transactions" },
        { name: "customers", type: "number", label: "Customers" },
        { name: "percentage", type: "number", label: "Share", unit: "%" },
      ],
      default_visualization: "table",
    },
    run(ctx) {
      return revenueBreakdown(ctx, { nameOf: (tx) => (isAttributedTransaction(tx) ? 'Attributed' : 'Unattributed') });
    },
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_country',
    title: "Revenue by Country",
    description: "Attributed revenue breakdown by country.",
    tags: ["revenue", "country", "geo"],
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => firstTouchLabel(ctx, tx, 'country', 'Unknown'), limit: 20 }),
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_region',
    title: "Revenue by Region",
    description: "Attributed revenue breakdown by region/state.",
    tags: ["revenue", "region", "geo"],
    withCountry: true,
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => firstTouchLabel(ctx, tx, 'region', 'Unknown'), extra: (tx) => ({ country: firstTouch(ctx, tx, 'country') }), limit: 20 }),
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_city',
    title: "Revenue by City",
    description: "Attributed revenue breakdown by city.",
    tags: ["revenue", "city", "geo"],
    withCountry: true,
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => firstTouchLabel(ctx, tx, 'city', 'Unknown'), extra: (tx) => ({ country: firstTouch(ctx, tx, 'country') }), limit: 20 }),
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_browser',
    title: "Revenue by Browser",
    description: "Attributed revenue breakdown by browser.",
    tags: ["revenue", "browser"],
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => firstTouchLabel(ctx, tx, 'browser_name', 'Unknown'), limit: 10 }),
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_device',
    title: "Revenue by Device",
    description: "Attributed revenue breakdown by device type.",
    tags: ["revenue", "device"],
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => firstTouchLabel(ctx, tx, 'device_type', 'Unknown'), limit: 10 }),
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_os',
    title: "Revenue by OS",
    description: "Attributed revenue breakdown by operating system.",
    tags: ["revenue", "os"],
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => firstTouchLabel(ctx, tx, 'os_name', 'Unknown'), limit: 10 }),
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_referrer',
    title: "Revenue by Referrer",
    description: "Attributed revenue breakdown by referrer domain.",
    tags: ["revenue", "referrer"],
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => firstTouchLabel(ctx, tx, 'referrer', 'Direct'), limit: 20 }),
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_ai_product',
    title: "Revenue by AI Product",
    description: "Attributed revenue from visitors sent by AI products (ChatGPT, Claude, Perplexity and others) through referrals or their desktop app browser.",
    tags: ["revenue", "ai", "referrer", "chatgpt", "claude"],
    customizable: false,
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => aiProductOfReferrer(firstTouch(ctx, tx, 'referrer')), limit: 20 }),
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_utm_source',
    title: "Revenue by UTM Source",
    description: "Attributed revenue breakdown by UTM source.",
    tags: ["revenue", "utm", "source"],
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => firstTouchLabel(ctx, tx, 'utm_source', 'None'), limit: 20 }),
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_utm_medium',
    title: "Revenue by UTM Medium",
    description: "Attributed revenue breakdown by UTM medium.",
    tags: ["revenue", "utm", "medium"],
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => firstTouchLabel(ctx, tx, 'utm_medium', 'None'), limit: 20 }),
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_utm_campaign',
    title: "Revenue by UTM Campaign",
    description: "Attributed revenue breakdown by UTM campaign.",
    tags: ["revenue", "utm", "campaign"],
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => firstTouchLabel(ctx, tx, 'utm_campaign', 'None'), limit: 20 }),
  }),
  defineRevenueBreakdown({
    name: 'revenue_by_entry_page',
    title: "Revenue by Entry Page",
    description: "Attributed revenue breakdown by entry page path.",
    tags: ["revenue", "entry", "page"],
    rows: (ctx) =>
      revenueBreakdown(ctx, { nameOf: (tx) => firstTouchLabel(ctx, tx, 'path', 'Unknown'), limit: 20 }),
  }),
  defineQueryType({
    name: 'recent_transactions',
    family: FAMILY,
    paging: 'self',
    filters: ["currency", "provider", "type", "country", "region", "city", "browser_name", "device_type", "os_name", "utm_source", "utm_medium", "utm_campaign", "referrer", "path"],
    customizable: true,
    fields: {
      transaction_id: 'string',
      provider: 'string',
      type: 'string',
      amount: 'number',
      currency: 'string',
      anonymous_id: 'string?',
      product_name: 'string?',
      created: 'string',
      is_attributed: 'integer',
      attribution_method: 'string',
      unmatched_reason: 'string',
      country: 'string',
      browser_name: 'string',
      device_type: 'string',
      referrer: 'string',
      utm_source: 'string',
      utm_campaign: 'string',
    },
    meta: {
      title: "Recent Transactions",
      description: "Most recent non-refund transactions with attribution context.",
      category: "Revenue",
      tags: ["revenue", "transactions", "recent"],
      output_fields: [
        { name: "transaction_id", type: "string", label: "Transaction ID" },
        { name: "provider", type: "string", label: "Provider" },
        { name: "type", type: "string", label: "Type" },
        { name: "amount", type: "number", label: "Amount" },
        { name: "currency", type: "string", label: "Currency" },
        { name: "anonymous_id", type: "string", label: "Anonymous ID" },
        { name: "product_name", type: "string", label: "Product" },
        { name: "created", type: "datetime", label: "Created" },
        { name: "is_attributed", type: "number", label: "Attributed" },
        { name: "attribution_method", type: "string", label: "Match Method" },
        { name: "unmatched_reason", type: "string", label: "Unmatched Reason" },
        { name: "country", type: "string", label: "Country" },
        { name: "browser_name", type: "string", label: "Browser" },
        { name: "device_type", type: "string", label: "Device" },
        { name: "referrer", type: "string", label: "Referrer" },
        { name: "utm_source", type: "string", label: "UTM Source" },
        { name: "utm_campaign", type: "string", label: "UTM Campaign" },
      ],
      default_visualization: "table",
    },
    run(ctx) {
      return recentTransactionRows(ctx, ctx.limit ?? 50);
    },
  }),
];
