import { defineQueryType, type QueryTypeDefinition } from '../definition.js';

/** The live links builders. */
export const outboundLinksTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'outbound_links',
    family: 'links',
    publicAccess: true,
    filters: ["client_id", "anonymous_id", "session_id", "href", "text"],
    customizable: true,
    fields: {
      href: 'string',
      text: 'string',
      total_clicks: 'integer',
      unique_users: 'integer',
      unique_sessions: 'integer',
      percentage: 'number',
      last_clicked: 'string',
    },
    meta: {
      title: "Outbound Links",
      description: "Track external links clicked by users, showing which outbound destinations are most popular.",
      category: "Behavior",
      tags: ["links", "outbound", "external", "clicks", "engagement"],
      output_fields: [
        { name: "href", type: "string", label: "Destination URL", description: "The external URL that was clicked" },
        { name: "text", type: "string", label: "Link Text", description: "The visible text of the clicked link" },
        { name: "total_clicks", type: "number", label: "Total Clicks", description: "Total number of clicks on this link" },
        { name: "unique_users", type: "number", label: "Unique Users", description: "Number of unique users who clicked this link" },
        { name: "unique_sessions", type: "number", label: "Unique Sessions", description: "Number of unique sessions with clicks on this link" },
        { name: "percentage", type: "number", label: "Click Share", description: "Percentage of total outbound link clicks", unit: "%" },
        { name: "last_clicked", type: "string", label: "Last Clicked", description: "Most recent time this link was clicked" },
      ],
      default_visualization: "table",
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
  defineQueryType({
    name: 'outbound_domains',
    family: 'links',
    publicAccess: true,
    filters: ["client_id", "anonymous_id", "session_id", "href", "text"],
    customizable: true,
    fields: {
      domain: 'string',
      total_clicks: 'integer',
      unique_users: 'integer',
      unique_links: 'integer',
      percentage: 'number',
    },
    meta: {
      title: "Outbound Domains",
      description: "Aggregate outbound link clicks by destination domain to see which external sites users visit most.",
      category: "Behavior",
      tags: ["links", "domains", "external", "clicks", "destinations"],
      output_fields: [
        { name: "domain", type: "string", label: "Domain", description: "The external domain that was clicked" },
        { name: "total_clicks", type: "number", label: "Total Clicks", description: "Total number of clicks to this domain" },
        { name: "unique_users", type: "number", label: "Unique Users", description: "Number of unique users who clicked links to this domain" },
        { name: "unique_links", type: "number", label: "Unique Links", description: "Number of different links clicked to this domain" },
        { name: "percentage", type: "number", label: "Click Share", description: "Percentage of total outbound link clicks", unit: "%" },
      ],
      default_visualization: "table",
    },
    run() {
      return []; // TODO(#12): rows from the world model
    },
  }),
];
