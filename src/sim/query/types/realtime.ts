import { defineQueryType, type QueryTypeDefinition } from '../definition.js';

/** The live realtime builders. */
export const realtimeTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'realtime_pages',
    family: 'realtime',
    customizable: false,
    limit: 10,
    fields: {
      path: 'string',
      pageviews: 'integer',
      visitors: 'integer',
    },
    meta: {
      title: "Realtime Top Pages",
      description: "Top pages being viewed right now, ranked by active viewers in the last 5 minutes.",
      category: "Realtime",
      tags: ["realtime", "pages", "live", "top"],
      output_fields: [
        { name: "path", type: "string", label: "Page", description: "Page path" },
        { name: "pageviews", type: "number", label: "Pageviews", description: "Total pageviews in the last 5 minutes" },
        { name: "visitors", type: "number", label: "Active Visitors", description: "Unique visitors on this page in the last 5 minutes" },
      ],
      default_visualization: "table",
      supports_granularity: [],
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'realtime_referrers',
    family: 'realtime',
    customizable: false,
    fields: {
      referrer: 'string',
      visitors: 'integer',
    },
    meta: {
      title: "Realtime Top Referrers",
      description: "Top traffic sources right now, ranked by active visitors in the last 5 minutes.",
      category: "Realtime",
      tags: ["realtime", "referrers", "live", "sources"],
      output_fields: [
        { name: "referrer", type: "string", label: "Referrer", description: "Referrer domain or 'Direct'" },
        { name: "visitors", type: "number", label: "Active Visitors", description: "Unique visitors from this referrer in the last 5 minutes" },
      ],
      default_visualization: "table",
      supports_granularity: [],
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'realtime_countries',
    family: 'realtime',
    customizable: false,
    limit: 50,
    fields: {
      name: 'string',
      visitors: 'integer',
    },
    meta: {
      title: "Realtime Countries",
      description: "Geographic distribution of active visitors in the last 5 minutes.",
      category: "Realtime",
      tags: ["realtime", "countries", "geography", "live"],
      output_fields: [
        { name: "name", type: "string", label: "Country", description: "Country code" },
        { name: "visitors", type: "number", label: "Active Visitors", description: "Unique visitors from this country" },
      ],
      default_visualization: "table",
      supports_granularity: [],
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'realtime_cities',
    family: 'realtime',
    customizable: false,
    limit: 30,
    fields: {
      city: 'string',
      country: 'string',
      visitors: 'integer',
    },
    meta: {
      title: "Realtime Cities",
      description: "City-level distribution of active visitors in the last 5 minutes.",
      category: "Realtime",
      tags: ["realtime", "cities", "geography", "live"],
      output_fields: [
        { name: "city", type: "string", label: "City", description: "City name" },
        { name: "country", type: "string", label: "Country", description: "Country code" },
        { name: "visitors", type: "number", label: "Active Visitors", description: "Unique visitors from this city" },
      ],
      default_visualization: "table",
      supports_granularity: [],
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'realtime_feed',
    family: 'realtime',
    customizable: false,
    limit: 30,
    fields: {
      event_name: 'string',
      path: 'string',
      country: 'string',
      browser_name: 'string',
      timestamp: 'string',
    },
    meta: {
      title: "Realtime Live Feed",
      description: "Live stream of the most recent events happening on the website.",
      category: "Realtime",
      tags: ["realtime", "feed", "live", "stream", "events"],
      output_fields: [
        { name: "event_name", type: "string", label: "Event", description: "Event name" },
        { name: "path", type: "string", label: "Page", description: "Page path" },
        { name: "country", type: "string", label: "Country", description: "Visitor country" },
        { name: "browser_name", type: "string", label: "Browser", description: "Browser name" },
        { name: "timestamp", type: "datetime", label: "Time", description: "Event timestamp" },
      ],
      default_visualization: "table",
      supports_granularity: [],
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'realtime_sessions',
    family: 'realtime',
    customizable: false,
    fields: {
      session_id: 'string',
      current_page: 'string',
      country: 'string',
      device_type: 'string',
      pages_viewed: 'integer',
      last_seen: 'string',
    },
    meta: {
      title: "Realtime Active Sessions",
      description: "Individual sessions active in the last 5 minutes with their current page and metadata.",
      category: "Realtime",
      tags: ["realtime", "sessions", "live", "active"],
      output_fields: [
        { name: "session_id", type: "string", label: "Session", description: "Session identifier" },
        { name: "current_page", type: "string", label: "Page", description: "Last visited page" },
        { name: "country", type: "string", label: "Country", description: "Visitor country" },
        { name: "device_type", type: "string", label: "Device", description: "Device type" },
        { name: "pages_viewed", type: "number", label: "Pages", description: "Pages viewed in session" },
        { name: "last_seen", type: "datetime", label: "Last Seen", description: "Last activity timestamp" },
      ],
      default_visualization: "table",
      supports_granularity: [],
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'realtime_velocity',
    family: 'realtime',
    customizable: false,
    fields: {
      minute: 'string',
      pageviews: 'integer',
      events: 'number',
      visitors: 'number',
    },
    meta: {
      title: "Realtime Velocity",
      description: "Per-minute breakdown of pageviews and events over the last 60 minutes for sparkline display.",
      category: "Realtime",
      tags: ["realtime", "velocity", "sparkline", "trend"],
      output_fields: [
        { name: "minute", type: "datetime", label: "Minute", description: "Start of minute bucket" },
        { name: "pageviews", type: "number", label: "Pageviews", description: "Pageviews in this minute" },
        { name: "events", type: "number", label: "Events", description: "Custom events in this minute" },
        { name: "visitors", type: "number", label: "Visitors", description: "Unique visitors in this minute" },
      ],
      default_visualization: "timeseries",
      supports_granularity: [],
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
];
