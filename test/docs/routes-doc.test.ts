import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routeDocument } from './route-document.js';

describe('docs/routes.md', () => {
  it('lists every route with the access, limit and summary its declaration gives (run npm run docs:routes after a change)', () => {
    const written = readFileSync(new URL('../../docs/routes.md', import.meta.url), 'utf8');
    expect(written).toBe(routeDocument());
  });
});
