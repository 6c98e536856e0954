import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, type QueryFamilySpec, type QueryTypeDefinition } from '../../engine/definition.js';
import {
  realtimeCityRows,
  realtimeCountryRows,
  realtimeFeedRows,
  realtimePagesRows,
  realtimeReferrerRows,
  realtimeSessionRows,
  realtimeVelocityRows,
} from './realtime-rows.js';
import catalogue from './realtime-catalogue.json' with { type: 'json' };

/** The realtime family: its types' fields and meta are in realtime-catalogue.json. */
const FAMILY: QueryFamilySpec = { name: 'realtime', catalogue: readCatalogue('realtime', catalogue) };

/** What every realtime declaration below shares: its types read "now", whatever the range. */
const defineRealtimeType = declareUnder({ family: FAMILY, skipDateRange: true, customizable: false });

/** The live realtime builders. */
export const realtimeTypes: QueryTypeDefinition[] = [
  defineRealtimeType({
    name: 'realtime_pages',
    limit: 10,
    run: realtimePagesRows,
  }),
  defineRealtimeType({
    name: 'realtime_referrers',
    paging: 'self',
    run: realtimeReferrerRows,
  }),
  defineRealtimeType({
    name: 'realtime_countries',
    limit: 50,
    run: realtimeCountryRows,
  }),
  defineRealtimeType({
    name: 'realtime_cities',
    limit: 30,
    run: realtimeCityRows,
  }),
  defineRealtimeType({
    name: 'realtime_feed',
    limit: 30,
    run: realtimeFeedRows,
  }),
  defineRealtimeType({
    name: 'realtime_sessions',
    paging: 'self',
    run: realtimeSessionRows,
  }),
  defineRealtimeType({
    name: 'realtime_velocity',
    paging: 'self',
    run: realtimeVelocityRows,
  }),
];
