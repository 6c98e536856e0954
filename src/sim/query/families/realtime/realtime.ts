import { declareUnder, type QueryTypeDefinition } from '../../engine/definition.js';
import { datetime, int, num, text } from '../../engine/fields.js';
import {
  realtimeCityRows,
  realtimeCountryRows,
  realtimeFeedRows,
  realtimePagesRows,
  realtimeReferrerRows,
  realtimeSessionRows,
  realtimeVelocityRows,
} from './realtime-rows.js';

/** What every realtime declaration below shares. */
const defineRealtimeType = declareUnder({
  family: 'realtime',
  skipDateRange: true,
  customizable: false,
  category: "Realtime",
});

/** The live realtime builders. */
export const realtimeTypes: QueryTypeDefinition[] = [
  defineRealtimeType({
    name: 'realtime_pages',
    limit: 10,
    fields: {
      path: text("Page", { description: "Page path" }),
      pageviews: int("Pageviews", { description: "Total pageviews in the last 5 minutes" }),
      visitors: int("Active Visitors", { description: "Unique visitors on this page in the last 5 minutes" }),
    },
    meta: {
      title: "Realtime Top Pages",
      description: "Top pages being viewed right now, ranked by active viewers in the last 5 minutes.",
      tags: ["realtime", "pages", "live", "top"],
      default_visualization: "table",
      supports_granularity: [],
    },
    run: realtimePagesRows,
  }),
  defineRealtimeType({
    name: 'realtime_referrers',
    paging: 'self',
    fields: {
      referrer: text("Referrer", { description: "Referrer domain or 'Direct'" }),
      visitors: int("Active Visitors", { description: "Unique visitors from this referrer in the last 5 minutes" }),
    },
    meta: {
      title: "Realtime Top Referrers",
      description: "Top traffic sources right now, ranked by active visitors in the last 5 minutes.",
      tags: ["realtime", "referrers", "live", "sources"],
      default_visualization: "table",
      supports_granularity: [],
    },
    run: realtimeReferrerRows,
  }),
  defineRealtimeType({
    name: 'realtime_countries',
    limit: 50,
    fields: {
      name: text("Country", { description: "Country code" }),
      visitors: int("Active Visitors", { description: "Unique visitors from this country" }),
    },
    meta: {
      title: "Realtime Countries",
      description: "Geographic distribution of active visitors in the last 5 minutes.",
      tags: ["realtime", "countries", "geography", "live"],
      default_visualization: "table",
      supports_granularity: [],
    },
    run: realtimeCountryRows,
  }),
  defineRealtimeType({
    name: 'realtime_cities',
    limit: 30,
    fields: {
      city: text("City", { description: "City name" }),
      country: text("Country", { description: "Country code" }),
      visitors: int("Active Visitors", { description: "Unique visitors from this city" }),
    },
    meta: {
      title: "Realtime Cities",
      description: "City-level distribution of active visitors in the last 5 minutes.",
      tags: ["realtime", "cities", "geography", "live"],
      default_visualization: "table",
      supports_granularity: [],
    },
    run: realtimeCityRows,
  }),
  defineRealtimeType({
    name: 'realtime_feed',
    limit: 30,
    fields: {
      event_name: text("Event", { description: "Event name" }),
      path: text("Page", { description: "Page path" }),
      country: text("Country", { description: "Visitor country" }),
      browser_name: text("Browser", { description: "Browser name" }),
      timestamp: datetime("Time", { description: "Event timestamp" }),
    },
    meta: {
      title: "Realtime Live Feed",
      description: "Live stream of the most recent events happening on the website.",
      tags: ["realtime", "feed", "live", "stream", "events"],
      default_visualization: "table",
      supports_granularity: [],
    },
    run: realtimeFeedRows,
  }),
  defineRealtimeType({
    name: 'realtime_sessions',
    paging: 'self',
    fields: {
      session_id: text("Session", { description: "Session identifier" }),
      current_page: text("Page", { description: "Last visited page" }),
      country: text("Country", { description: "Visitor country" }),
      device_type: text("Device", { description: "Device type" }),
      pages_viewed: int("Pages", { description: "Pages viewed in session" }),
      last_seen: datetime("Last Seen", { description: "Last activity timestamp" }),
    },
    meta: {
      title: "Realtime Active Sessions",
      description: "Individual sessions active in the last 5 minutes with their current page and metadata.",
      tags: ["realtime", "sessions", "live", "active"],
      default_visualization: "table",
      supports_granularity: [],
    },
    run: realtimeSessionRows,
  }),
  defineRealtimeType({
    name: 'realtime_velocity',
    paging: 'self',
    fields: {
      minute: datetime("Minute", { description: "Start of minute bucket" }),
      pageviews: int("Pageviews", { description: "Pageviews in this minute" }),
      events: num("Events", { description: "Custom events in this minute" }),
      visitors: num("Visitors", { description: "Unique visitors in this minute" }),
    },
    meta: {
      title: "Realtime Velocity",
      description: "Per-minute breakdown of pageviews and events over the last 60 minutes for sparkline display.",
      tags: ["realtime", "velocity", "sparkline", "trend"],
      default_visualization: "timeseries",
      supports_granularity: [],
    },
    run: realtimeVelocityRows,
  }),
];
