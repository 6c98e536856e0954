import { PROFILE_SWITCHES } from '../../src/sim/profile.js';
import { rowFields } from '../../src/sim/query/engine/definition.js';
import { allowedFilters, QUERY_TYPES } from '../../src/sim/query/registry.js';
import { dayWeightOf, MAX_PARAMETER_SITE_DAYS, UNIT_MS } from '../../src/sim/query/engine/work-budget.js';
import { foldsDayDigests } from '../../src/sim/query/readers/digest-days.js';

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** The text of docs/query-types.md, from the query type declarations. */
export function queryTypesDocument(): string {
  const families = [...new Set(QUERY_TYPES.map((t) => t.family))];
  const sections = families.map((family) => {
    const types = QUERY_TYPES.filter((t) => t.family === family);
    const rows = types.map((t) => {
      const notes = [
        t.target !== 'website' ? `${t.target} (${t.target === 'link' ? 'link_id' : 'schedule_id'})` : '',
        t.publicAccess ? 'public' : t.olderPublicAccess ? 'public under spec' : '',
        t.gate ? 'plan: error tracking' : t.liveGate ? 'plan: error tracking under live' : '',
        t.insightsOnly ? 'insights only' : '',
        t.paging === 'self' ? 'pages itself' : '',
      ].filter(Boolean);
      const extras = t.extraFilters.filter((f) => allowedFilters(t).includes(f));
      const specFields = t.spec ? `<br>spec: ${rowFields(t, 'spec').join(', ')}` : '';
      const weight = dayWeightOf(t.name);
      const budget =
        t.target !== 'website' || t.skipDateRange
          ? '—'
          : `${weight} (${Math.round((MAX_PARAMETER_SITE_DAYS * weight * UNIT_MS) / 100) / 10} s${foldsDayDigests(t) ? ' with filters; per-day digests without' : ''})`;
      return `| \`${t.name}\` | ${cell(Object.keys(t.fields).join(', '))}${specFields} | ${cell(extras.join(', ')) || '—'} | ${t.liveLimit ?? '—'} | ${budget} | ${notes.join('; ') || '—'} |`;
    });
    return `## ${family} (${types.length})\n\n| type | row fields (live) | extra filters | own limit | day weight | notes |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n`;
  });
  return `# Query types

Generated from the query type declarations (\`src/sim/query/families/\`) by \`npm run docs:types\`
(a test fails when this file and the declarations differ). ${QUERY_TYPES.length} types in the live
builder families and order. Every type also accepts the 14 global filters (\`path, query_string,
country, region, city, timezone, language, device_type, browser_name, os_name, referrer,
utm_source, utm_medium, utm_campaign\`); *extra filters* are the type's own. *Own limit* is the
builder's \`limit\` (\`defaultLimit\` in \`/v1/query/types\`); a type that *pages itself* applies
\`limit\`/\`page\` only where the live SQL does (most return every row, such as every bucket of a
time series). *public* types answer without a credential on a public website; *public under spec*
ones only under the spec profile (the older, broader list). Types needing the error-tracking
feature answer 402 \`FEATURE_UNAVAILABLE\` for organizations on the free plan: under spec on a
\`website_id\` query, under live at every website scope (\`website_id\`, \`organization_id\`, or
none with an organization implied); *under live* ones only under the live profile.
*Day weight* is what the pass that computes a type's rows costs a day of a medium or larger
website read session by session, in units of ${UNIT_MS.toFixed(3)} ms, measured by \`npm run measure:costs\`.
Every type answers up to ${MAX_PARAMETER_SITE_DAYS} website-days a parameter (five years of one website; a small
website's day counts half, a tiny one's a tenth): in brackets, how long that pass holds the
event loop at ${MAX_PARAMETER_SITE_DAYS} days of one large website, estimated from the weight. The types marked
*per-day digests* read each whole day of an unfiltered range on one website from a digest of it
instead, so their pass follows the days: tens of milliseconds at ${MAX_PARAMETER_SITE_DAYS} days.

Rows have the live fields under both profiles, except where SPEC.md shows another shape: those
types list their *spec* fields too.

${sections.join('\n')}
## Profile switches

${PROFILE_SWITCHES.map((s) => `- \`${s.name}\``).join('\n')} (see the README for what each does).
`;
}
