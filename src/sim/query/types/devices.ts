import type { QueryTypeDefinition } from '../definition.js';
import { defineBreakdown } from './breakdown.js';

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export const deviceTypes: QueryTypeDefinition[] = [
  defineBreakdown({
    name: 'browser_name',
    dimension: 'browser_name',
    title: 'Browsers',
    description: 'Website traffic breakdown by browser type showing which browsers your visitors use most.',
    category: 'Technology',
    visualization: 'pie',
  }),
  defineBreakdown({
    name: 'os_name',
    dimension: 'os_name',
    title: 'Operating Systems',
    description: 'Distribution of visitors by operating system (Windows, macOS, iOS, Android, etc.).',
    category: 'Technology',
    visualization: 'pie',
  }),
  defineBreakdown({
    name: 'screen_resolution',
    dimension: 'screen_resolution',
    title: 'Screen Resolutions',
    description: 'Traffic by screen size, with the device category that size belongs to.',
    category: 'Technology',
    extraFields: ['device_type'],
    extra: (code, d) => ({ device_type: capitalize(deviceOfResolution(d.values.screen_resolution[code] ?? '')) }),
  }),
  defineBreakdown({
    name: 'device_types',
    dimension: 'device_type',
    title: 'Devices',
    description: 'Traffic breakdown by device category (Desktop, Mobile, Tablet) based on user agent detection.',
    category: 'Technology',
    visualization: 'pie',
    defaultLimit: 20,
    label: (code, d) => capitalize(d.values.device_type[code] ?? 'desktop'),
  }),
];

function deviceOfResolution(resolution: string): string {
  const width = Number(resolution.split('x')[0]);
  if (width < 600) return 'mobile';
  if (width < 1100) return 'tablet';
  return 'desktop';
}
