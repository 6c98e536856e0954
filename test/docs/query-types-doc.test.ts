import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROFILE_SWITCHES } from '../../src/sim/profile.js';
import { queryTypesDocument } from './query-types-document.js';

describe('docs/query-types.md', () => {
  it('lists every query type with the fields, filters and limits its declaration gives (run npm run docs:types after a change)', () => {
    const written = readFileSync(new URL('../../docs/query-types.md', import.meta.url), 'utf8');
    expect(written).toBe(queryTypesDocument());
  });
});

describe('the README profile table', () => {
  it('names every profile switch', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const s of PROFILE_SWITCHES) expect(readme, s.name).toContain(`\`${s.name}\``);
  });
});
