import type { QueryTypeDefinition } from '../definition.js';
import { defineBreakdown } from './breakdown.js';

export const geoTypes: QueryTypeDefinition[] = [
  defineBreakdown({
    name: 'country',
    dimension: 'country',
    title: 'Countries',
    description: 'Page-view traffic by country (ISO 3166-1 alpha-2 code), with the country name.',
    category: 'Geography',
    extraFields: ['country_name'],
    extra: (code, d) => ({ country_name: d.countryNames[code] ?? '' }),
  }),
  defineBreakdown({
    name: 'region',
    dimension: 'region',
    title: 'Regions',
    description: 'Page-view traffic by region, with the country it belongs to.',
    category: 'Geography',
    extraFields: ['country'],
    extra: (code, d) => ({ country: d.values.country[d.regionCountry[code] as number] ?? '' }),
  }),
  defineBreakdown({
    name: 'timezone',
    dimension: 'timezone',
    title: 'Time Zones',
    description: 'Page-view traffic by the visitor’s IANA time zone.',
    category: 'Geography',
  }),
  defineBreakdown({
    name: 'language',
    dimension: 'language',
    title: 'Languages',
    description: 'Page-view traffic by browser language.',
    category: 'Geography',
  }),
  defineBreakdown({
    name: 'city',
    dimension: 'city',
    title: 'Cities',
    description: 'Page-view traffic by city, with its region and country.',
    category: 'Geography',
    extraFields: ['region', 'country'],
    extra: (code, d) => {
      const region = d.cityRegion[code] as number;
      return {
        region: d.values.region[region] ?? '',
        country: d.values.country[d.regionCountry[region] as number] ?? '',
      };
    },
  }),
];
