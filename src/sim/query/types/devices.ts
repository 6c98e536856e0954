import type { QueryTypeDefinition } from '../definition.js';
import { deviceLabel } from '../labels.js';
import { defineBreakdown } from './breakdown.js';


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
    extra: (code, d) => ({ device_type: deviceLabel(deviceOfResolution(d.values.screen_resolution[code] ?? '')) }),
  }),
  defineBreakdown({
    name: 'device_types',
    dimension: 'device_type',
    title: 'Devices',
    description: 'Traffic breakdown by device category (Desktop, Mobile, Tablet) based on user agent detection.',
    category: 'Technology',
    visualization: 'pie',
    defaultLimit: 20,
    label: (code, d) => deviceLabel(d.values.device_type[code]),
  }),
];

function deviceOfResolution(resolution: string): string {
  const width = Number(resolution.split('x')[0]);
  if (width < 600) return 'mobile';
  if (width < 1100) return 'tablet';
  return 'desktop';
}
