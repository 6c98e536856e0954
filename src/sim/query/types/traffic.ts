import { byVisitors, groupSessions, percentage } from '../aggregate.js';
import { type QueryTypeDefinition, type Row } from '../definition.js';
import { defineWebsiteType } from '../legacy-type.js';
import { referrerHost } from '../labels.js';
import { breakdownSql, defineBreakdown } from './breakdown.js';

const isEmpty = (code: number): boolean => code === 0;

export const trafficTypes: QueryTypeDefinition[] = [
  defineWebsiteType({
    name: 'top_referrers',
    meta: {
      title: 'Top Referrers',
      description: 'Sites that sent visitors, by referrer domain; direct visits and self-referrals are excluded.',
      category: 'Acquisition',
      outputFields: ['name', 'referrer', 'pageviews', 'visitors', 'percentage'],
      defaultVisualization: 'table',
    },
    sql: breakdownSql('domain(referrer)', ['any(referrer) AS referrer']),
    run(ctx) {
      const referrers = ctx.dictionaries.values.referrer;
      const groups = groupSessions(ctx, (batch, i) => batch.dims.referrer[i] as number);
      const byHost = new Map<string, Row & { name: string; pageviews: number; visitors: number }>();
      for (const [code, stats] of groups) {
        if (code === 0) continue;
        const url = referrers[code] ?? '';
        const name = referrerHost(url);
        const row = byHost.get(name);
        if (row) {
          row.pageviews += stats.pageviews;
          row.visitors += stats.visitors;
        } else {
          byHost.set(name, { name, referrer: url, pageviews: stats.pageviews, visitors: stats.visitors });
        }
      }
      const rows = [...byHost.values()].sort(byVisitors);
      const total = rows.reduce((sum, r) => sum + r.visitors, 0);
      return rows.map((r) => ({ ...r, percentage: percentage(r.visitors, total) }));
    },
  }),
  defineBreakdown({
    name: 'utm_sources',
    dimension: 'utm_source',
    title: 'UTM Sources',
    description: 'Traffic by utm_source, for sessions that carried one.',
    category: 'Acquisition',
    skip: isEmpty,
  }),
  defineBreakdown({
    name: 'utm_mediums',
    dimension: 'utm_medium',
    title: 'UTM Mediums',
    description: 'Traffic by utm_medium, for sessions that carried one.',
    category: 'Acquisition',
    skip: isEmpty,
  }),
  defineBreakdown({
    name: 'utm_campaigns',
    dimension: 'utm_campaign',
    title: 'UTM Campaigns',
    description: 'Traffic by utm_campaign, for sessions that carried one.',
    category: 'Acquisition',
    skip: isEmpty,
  }),
  defineWebsiteType({
    name: 'traffic_sources',
    meta: {
      title: 'Traffic Sources',
      description: 'Page-view traffic by source category (Direct, Search, Social, Email, Referral); self-referrals are folded into Direct.',
      category: 'Acquisition',
      outputFields: ['name', 'pageviews', 'visitors', 'sessions', 'percentage'],
      defaultVisualization: 'table',
    },
    sql: breakdownSql("multiIf(referrer = '', 'Direct', referrer_type)", ['uniq(session_id) AS sessions']),
    run(ctx) {
      const { referrerSourceType, sourceTypes } = ctx.dictionaries;
      const groups = groupSessions(ctx, (batch, i) => referrerSourceType[batch.dims.referrer[i] as number] as number);
      const rows = [...groups].map(([type, stats]) => ({
        name: sourceTypes[type] ?? 'Referral',
        pageviews: stats.pageviews,
        visitors: stats.visitors,
        sessions: stats.sessions,
      }));
      rows.sort(byVisitors);
      const total = rows.reduce((sum, r) => sum + r.sessions, 0);
      return rows.map((r) => ({ ...r, percentage: percentage(r.sessions, total) }));
    },
  }),
];
