import { defineQueryType, type QueryTypeDefinition } from '../definition.js';

/** The live engagement builders. */
export const engagementTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'frustration_by_page',
    family: 'engagement',
    fields: {
      name: 'string',
      page_views: 'integer',
      visitors: 'integer',
      rage_click_rate: 'number',
      dead_click_rate: 'number',
      error_rate: 'number',
      top_dead_click_target: 'string',
      top_rage_click_target: 'string',
    },
    meta: {
      title: "Frustration by Page",
      description: "Rage clicks, dead clicks, and errors per page view, with the control most often involved.",
      category: "Engagement",
      tags: ["frustration", "rage clicks", "dead clicks", "engagement"],
      output_fields: [
        { name: "name", type: "string", label: "Page" },
        { name: "page_views", type: "number", label: "Page Views" },
        { name: "visitors", type: "number", label: "Visitors" },
        { name: "rage_click_rate", type: "number", label: "Rage Click Rate", description: "Share of page views with at least one rage click", unit: "%" },
        { name: "dead_click_rate", type: "number", label: "Dead Click Rate", description: "Share of page views with at least one dead click", unit: "%" },
        { name: "error_rate", type: "number", label: "Error Rate", description: "Share of page views with a captured error", unit: "%" },
        { name: "top_dead_click_target", type: "string", label: "Most Dead-Clicked Control" },
        { name: "top_rage_click_target", type: "string", label: "Most Rage-Clicked Control" },
      ],
      default_visualization: "table",
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'form_abandonment_by_page',
    family: 'engagement',
    fields: {
      name: 'string',
      form_starts: 'integer',
      form_submits: 'integer',
      abandonment_rate: 'number',
      top_abandoned_field: 'string',
    },
    meta: {
      title: "Form Abandonment by Page",
      description: "Page views that touched a form field without submitting, and the field visitors stopped on.",
      category: "Engagement",
      tags: ["forms", "abandonment", "conversion", "engagement"],
      output_fields: [
        { name: "name", type: "string", label: "Page" },
        { name: "form_starts", type: "number", label: "Form Starts", description: "Page views that focused at least one form field" },
        { name: "form_submits", type: "number", label: "Form Submits" },
        { name: "abandonment_rate", type: "number", label: "Abandonment Rate", unit: "%" },
        { name: "top_abandoned_field", type: "string", label: "Field Most Often Left On" },
      ],
      default_visualization: "table",
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'engagement_quality_by_page',
    family: 'engagement',
    fields: {
      name: 'string',
      page_views: 'integer',
      avg_time_on_page: 'number',
      avg_active_time: 'number',
      attention_ratio: 'number',
      avg_scroll_depth: 'number',
      avg_interactions: 'number',
      median_time_to_first_interaction: 'number',
    },
    meta: {
      title: "Engagement Quality by Page",
      description: "Active time versus time on page, scroll depth, and interaction per page view.",
      category: "Engagement",
      tags: ["active time", "attention", "engagement", "page"],
      output_fields: [
        { name: "name", type: "string", label: "Page" },
        { name: "page_views", type: "number", label: "Page Views" },
        { name: "avg_time_on_page", type: "number", label: "Avg Time on Page", unit: "s" },
        { name: "avg_active_time", type: "number", label: "Avg Active Time", description: "Seconds the tab was visible and focused", unit: "s" },
        { name: "attention_ratio", type: "number", label: "Attention Ratio", description: "Active time as a share of time on page", unit: "%" },
        { name: "avg_scroll_depth", type: "number", label: "Avg Scroll Depth", unit: "%" },
        { name: "avg_interactions", type: "number", label: "Avg Interactions" },
        { name: "median_time_to_first_interaction", type: "number", label: "Median Time to First Interaction", unit: "ms" },
      ],
      default_visualization: "table",
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'scroll_depth_summary',
    family: 'engagement',
    customizable: true,
    fields: {
      avg_scroll_depth: 'number',
      total_sessions: 'integer',
      visitors: 'integer',
    },
    meta: {
      title: "Scroll Depth Summary",
      description: "Average scroll depth metrics showing how far users scroll on pages.",
      category: "Engagement",
      tags: ["scroll", "engagement", "user behavior"],
      output_fields: [
        { name: "avg_scroll_depth", type: "number", label: "Average Scroll Depth", description: "Average percentage of page scrolled", unit: "%" },
        { name: "total_sessions", type: "number", label: "Total Sessions", description: "Total sessions with scroll data" },
        { name: "visitors", type: "number", label: "Visitors", description: "Unique visitors with scroll data" },
      ],
      default_visualization: "metric",
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'scroll_depth_distribution',
    family: 'engagement',
    customizable: true,
    fields: {
      depth_range: 'string',
      visitors: 'integer',
      sessions: 'integer',
      percentage: 'number',
    },
    meta: {
      title: "Scroll Depth Distribution",
      description: "Breakdown of users by how far they scroll on pages, grouped into ranges.",
      category: "Engagement",
      tags: ["scroll", "distribution", "engagement"],
      output_fields: [
        { name: "depth_range", type: "string", label: "Scroll Range", description: "Percentage range of page scrolled" },
        { name: "visitors", type: "number", label: "Visitors", description: "Unique visitors in this range" },
        { name: "sessions", type: "number", label: "Sessions", description: "Sessions in this range" },
        { name: "percentage", type: "number", label: "Share", description: "Percentage of total sessions", unit: "%" },
      ],
      default_visualization: "bar",
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'page_scroll_performance',
    family: 'engagement',
    filters: ["path", "country", "device_type", "browser_name", "os_name", "referrer"],
    customizable: true,
    limit: 100,
    fields: {
      name: 'string',
      avg_scroll_depth: 'number',
      visitors: 'integer',
      sessions: 'integer',
      pageviews: 'integer',
    },
    meta: {
      title: "Page Scroll Performance",
      description: "Average scroll depth by page, showing which pages engage users most effectively.",
      category: "Engagement",
      tags: ["pages", "scroll", "performance"],
      output_fields: [
        { name: "name", type: "string", label: "Page Path", description: "The page URL path" },
        { name: "avg_scroll_depth", type: "number", label: "Avg Scroll Depth", description: "Average scroll depth percentage", unit: "%" },
        { name: "visitors", type: "number", label: "Visitors", description: "Unique visitors to this page" },
        { name: "sessions", type: "number", label: "Sessions", description: "Sessions on this page" },
        { name: "pageviews", type: "number", label: "Pageviews", description: "Total pageviews on this page" },
      ],
      default_visualization: "table",
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'interaction_summary',
    family: 'engagement',
    customizable: true,
    fields: {
      avg_interactions: 'number',
      interactive_sessions: 'integer',
      interaction_rate: 'number',
      total_sessions: 'integer',
    },
    meta: {
      title: "Interaction Summary",
      description: "Summary of user interactions (clicks, scrolls, key presses) reported on page exit. Sessions without a recorded page exit are not counted.",
      category: "Engagement",
      tags: ["interactions", "engagement", "user behavior"],
      output_fields: [
        { name: "avg_interactions", type: "number", label: "Average Interactions", description: "Average number of interactions per session" },
        { name: "interactive_sessions", type: "number", label: "Interactive Sessions", description: "Sessions with at least one interaction" },
        { name: "interaction_rate", type: "number", label: "Interaction Rate", description: "Percentage of sessions with interactions", unit: "%" },
        { name: "total_sessions", type: "number", label: "Total Sessions", description: "Sessions with a recorded page exit in the period" },
      ],
      default_visualization: "metric",
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
];
