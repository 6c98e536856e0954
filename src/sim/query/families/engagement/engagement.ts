import { engagementDerivation } from '../../../model/derived/engagement.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, type QueryTypeDefinition, type QueryFamilySpec } from '../../engine/definition.js';
import { formRows, frustrationRows, interactionRows, pageScrollRows, qualityRows, scrollDistributionRows, scrollSummaryRows } from './engagement-rows.js';
import { EXIT_ENGAGEMENT_DIGEST } from './exit-engagement-digest.js';
import { SPAN_PAGE_DIGEST } from './span-page-digest.js';
import catalogue from './engagement-catalogue.json' with { type: 'json' };

/**
 * The engagement family: its types read analytics.engagement_spans, deriving engagementDerivation
 * on each day of their range; their fields and meta are in engagement-catalogue.json.
 */
const FAMILY: QueryFamilySpec = {
  name: 'engagement',
  table: 'analytics.engagement_spans',
  derives: [engagementDerivation],
  catalogue: readCatalogue('engagement', catalogue),
};

/** What every engagement declaration below shares. */
const defineEngagementType = declareUnder({ family: FAMILY });

/** The live engagement builders. */
export const engagementTypes: QueryTypeDefinition[] = [
  defineEngagementType({
    name: 'frustration_by_page',
    // Its pass reads every pageview unfiltered: a filter sent is ignored, and said in a Warning.
    appliedFilters: [],
    // Read whole days from the digest; with filters its pass derives each day's engagement and errors in pieces.
    derives: [SPAN_PAGE_DIGEST],
    steps: frustrationRows,
  }),
  defineEngagementType({
    name: 'form_abandonment_by_page',
    // Its pass reads every pageview unfiltered: a filter sent is ignored, and said in a Warning.
    appliedFilters: [],
    steps: formRows,
  }),
  defineEngagementType({
    name: 'engagement_quality_by_page',
    // Its pass reads every pageview unfiltered: a filter sent is ignored, and said in a Warning.
    appliedFilters: [],
    // Read whole days from the digest; with filters its pass derives each day's engagement and errors in pieces.
    derives: [SPAN_PAGE_DIGEST],
    steps: qualityRows,
  }),
  defineEngagementType({
    name: 'scroll_depth_summary',
    derives: [EXIT_ENGAGEMENT_DIGEST],
    customizable: true,
    steps: scrollSummaryRows,
  }),
  defineEngagementType({
    name: 'scroll_depth_distribution',
    derives: [EXIT_ENGAGEMENT_DIGEST],
    customizable: true,
    steps: scrollDistributionRows,
  }),
  defineEngagementType({
    name: 'page_scroll_performance',
    derives: [EXIT_ENGAGEMENT_DIGEST],
    filters: ["path", "country", "device_type", "browser_name", "os_name", "referrer"],
    customizable: true,
    limit: 100,
    steps: pageScrollRows,
  }),
  defineEngagementType({
    name: 'interaction_summary',
    derives: [EXIT_ENGAGEMENT_DIGEST],
    customizable: true,
    steps: interactionRows,
  }),
];
