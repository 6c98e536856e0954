import { defineQueryType, type QueryTypeDefinition } from '../definition.js';

/** The live profiles builders. */
export const profilesTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'profile_list',
    family: 'profiles',
    filters: ["session_count", "total_events", "unique_pages", "event_name", "profile_id"],
    fields: {
      visitor_id: 'string',
      profile_id: 'string',
      first_visit: 'string',
      last_visit: 'string',
      session_count: 'integer',
      total_events: 'integer',
      unique_pages: 'integer',
      user_agent: 'string',
      country: 'string',
      region: 'string',
      device_type: 'string',
      browser_name: 'string',
      os_name: 'string',
      referrer: 'string',
      custom_event_count: 'integer',
      unique_event_names: 'integer',
      ltv: 'number',
    },
    meta: {
      description: "List of identified user profiles with visit counts and metadata.",
      category: "Profiles",
      tags: ["profiles", "users", "identified"],
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'profile_detail',
    family: 'profiles',
    filters: ["anonymous_id"],
    fields: {
      visitor_id: 'string',
      first_visit: 'string',
      last_visit: 'string',
      total_sessions: 'integer',
      total_pageviews: 'integer',
      total_duration: 'number',
      total_duration_formatted: 'string',
      profile_id: 'string',
      device: 'string',
      browser: 'string',
      os: 'string',
      country: 'string',
      region: 'string',
    },
    meta: {
      description: "Detailed profile information for a specific identified user, based on analytics, custom, error, vital, and link activity.",
      category: "Profiles",
      tags: ["profiles", "users", "detail"],
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'profile_revenue',
    family: 'profiles',
    filters: ["anonymous_id"],
    fields: {
      transaction_id: 'string',
      provider: 'string',
      type: 'string',
      status: 'string',
      amount: 'number',
      currency: 'string',
      product_name: 'string',
      created: 'string',
    },
    meta: {
      description: "Revenue transactions attributed to a user profile via profile id, device set, or session stitching.",
      category: "Profiles",
      tags: ["profiles", "revenue", "transactions"],
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'profile_sessions',
    family: 'profiles',
    filters: ["anonymous_id"],
    fields: {
      session_id: 'string',
      session_name: 'string',
      first_visit: 'string',
      last_visit: 'string',
      duration: 'integer',
      duration_formatted: 'string',
      page_views: 'integer',
      unique_pages: 'integer',
      device: 'string',
      browser: 'string',
      os: 'string',
      country: 'string',
      region: 'string',
      referrer: 'string',
      events: 'array',
      web_vitals: 'array',
      country_code: 'string',
      country_name: 'string',
    },
    meta: {
      description: "Session history for a user profile, including analytics events, custom events, errors, outgoing links, and separate web vitals context.",
      category: "Profiles",
      tags: ["profiles", "sessions", "history"],
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
];
