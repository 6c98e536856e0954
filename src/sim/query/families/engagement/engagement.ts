import { engagementDerivation } from '../../../model/derived/engagement.js';
import { errorDerivation } from '../../../model/derived/errors.js';
import { declareUnder, type QueryTypeDefinition, type QueryFamilySpec } from '../../engine/definition.js';
import { int, num, text } from '../../engine/fields.js';
import { formRows, frustrationRows, interactionRows, pageScrollRows, qualityRows, scrollDistributionRows, scrollSummaryRows } from './engagement-rows.js';

/** The engagement family: its types read analytics.engagement_spans, deriving engagementDerivation on each day of their range. */
const FAMILY: QueryFamilySpec = { name: 'engagement', table: 'analytics.engagement_spans', derives: [engagementDerivation] };

/** What every engagement declaration below shares. */
const defineEngagementType = declareUnder({
  family: FAMILY,
  category: "Engagement",
});

/** The live engagement builders. */
export const engagementTypes: QueryTypeDefinition[] = [
  defineEngagementType({
    name: 'frustration_by_page',
    derives: [engagementDerivation, errorDerivation],
    fields: {
      name: text("Page"),
      page_views: int("Page Views"),
      visitors: int("Visitors"),
      rage_click_rate: num("Rage Click Rate", { description: "Share of page views with at least one rage click", unit: "%" }),
      dead_click_rate: num("Dead Click Rate", { description: "Share of page views with at least one dead click", unit: "%" }),
      error_rate: num("Error Rate", { description: "Share of page views with a captured error", unit: "%" }),
      top_dead_click_target: text("Most Dead-Clicked Control"),
      top_rage_click_target: text("Most Rage-Clicked Control"),
    },
    meta: {
      title: "Frustration by Page",
      description: "Rage clicks, dead clicks, and errors per page view, with the control most often involved.",
      tags: ["frustration", "rage clicks", "dead clicks", "engagement"],
      default_visualization: "table",
    },
    run: frustrationRows,
  }),
  defineEngagementType({
    name: 'form_abandonment_by_page',
    fields: {
      name: text("Page"),
      form_starts: int("Form Starts", { description: "Page views that focused at least one form field" }),
      form_submits: int("Form Submits"),
      abandonment_rate: num("Abandonment Rate", { unit: "%" }),
      top_abandoned_field: text("Field Most Often Left On"),
    },
    meta: {
      title: "Form Abandonment by Page",
      description: "Page views that touched a form field without submitting, and the field visitors stopped on.",
      tags: ["forms", "abandonment", "conversion", "engagement"],
      default_visualization: "table",
    },
    run: formRows,
  }),
  defineEngagementType({
    name: 'engagement_quality_by_page',
    derives: [engagementDerivation, errorDerivation],
    fields: {
      name: text("Page"),
      page_views: int("Page Views"),
      avg_time_on_page: num("Avg Time on Page", { unit: "s" }),
      avg_active_time: num("Avg Active Time", { description: "Seconds the tab was visible and focused", unit: "s" }),
      attention_ratio: num("Attention Ratio", { description: "Active time as a share of time on page", unit: "%" }),
      avg_scroll_depth: num("Avg Scroll Depth", { unit: "%" }),
      avg_interactions: num("Avg Interactions"),
      median_time_to_first_interaction: num("Median Time to First Interaction", { unit: "ms" }),
    },
    meta: {
      title: "Engagement Quality by Page",
      description: "Active time versus time on page, scroll depth, and interaction per page view.",
      tags: ["active time", "attention", "engagement", "page"],
      default_visualization: "table",
    },
    run: qualityRows,
  }),
  defineEngagementType({
    name: 'scroll_depth_summary',
    customizable: true,
    fields: {
      avg_scroll_depth: num("Average Scroll Depth", { description: "Average percentage of page scrolled", unit: "%" }),
      total_sessions: int("Total Sessions", { description: "Total sessions with scroll data" }),
      visitors: int("Visitors", { description: "Unique visitors with scroll data" }),
    },
    meta: {
      title: "Scroll Depth Summary",
      description: "Average scroll depth metrics showing how far users scroll on pages.",
      tags: ["scroll", "engagement", "user behavior"],
      default_visualization: "metric",
    },
    run: scrollSummaryRows,
  }),
  defineEngagementType({
    name: 'scroll_depth_distribution',
    customizable: true,
    fields: {
      depth_range: text("Scroll Range", { description: "Percentage range of page scrolled" }),
      visitors: int("Visitors", { description: "Unique visitors in this range" }),
      sessions: int("Sessions", { description: "Sessions in this range" }),
      percentage: num("Share", { description: "Percentage of total sessions", unit: "%" }),
    },
    meta: {
      title: "Scroll Depth Distribution",
      description: "Breakdown of users by how far they scroll on pages, grouped into ranges.",
      tags: ["scroll", "distribution", "engagement"],
      default_visualization: "bar",
    },
    run: scrollDistributionRows,
  }),
  defineEngagementType({
    name: 'page_scroll_performance',
    filters: ["path", "country", "device_type", "browser_name", "os_name", "referrer"],
    customizable: true,
    limit: 100,
    fields: {
      name: text("Page Path", { description: "The page URL path" }),
      avg_scroll_depth: num("Avg Scroll Depth", { description: "Average scroll depth percentage", unit: "%" }),
      visitors: int("Visitors", { description: "Unique visitors to this page" }),
      sessions: int("Sessions", { description: "Sessions on this page" }),
      pageviews: int("Pageviews", { description: "Total pageviews on this page" }),
    },
    meta: {
      title: "Page Scroll Performance",
      description: "Average scroll depth by page, showing which pages engage users most effectively.",
      tags: ["pages", "scroll", "performance"],
      default_visualization: "table",
    },
    run: pageScrollRows,
  }),
  defineEngagementType({
    name: 'interaction_summary',
    customizable: true,
    fields: {
      avg_interactions: num("Average Interactions", { description: "Average number of interactions per session" }),
      interactive_sessions: int("Interactive Sessions", { description: "Sessions with at least one interaction" }),
      interaction_rate: num("Interaction Rate", { description: "Percentage of sessions with interactions", unit: "%" }),
      total_sessions: int("Total Sessions", { description: "Sessions with a recorded page exit in the period" }),
    },
    meta: {
      title: "Interaction Summary",
      description: "Summary of user interactions (clicks, scrolls, key presses) reported on page exit. Sessions without a recorded page exit are not counted.",
      tags: ["interactions", "engagement", "user behavior"],
      default_visualization: "metric",
    },
    run: interactionRows,
  }),
];
