import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The route declaration and the matcher (`src/sim/routing/`) sit below everything that declares
 * or runs routes: they import nothing at run time but each other, and their types come only from
 * the contract and the vocabulary every route speaks (errors, messages, the profile, who is
 * asking, the limit rules a route names, the state it reads). The route tables may import their
 * routes.
 */
const ROUTING = join(import.meta.dirname, '..', '..', 'src', 'sim', 'routing');
const ROUTE_TABLES = new Set(['public-routes.ts']);
const TYPE_SOURCES = new Set([
  '../../contract/errors.js',
  '../../contract/scopes.js',
  '../../contract/page-query.js',
  '../errors.js',
  '../messages.js',
  '../profile.js',
  '../auth/principal.js',
  '../admission/rules.js',
  '../state.js',
]);

/** Each import of a file: where from, and whether it is for types only. */
function importsOf(file: string): { from: string; typeOnly: boolean }[] {
  const text = readFileSync(join(ROUTING, file), 'utf8');
  return [...text.matchAll(/^import (type )?[^;]*? from '([^']+)';/gms)].map((m) => ({ from: m[2] as string, typeOnly: m[1] !== undefined }));
}

describe('routing/ imports nothing above it', () => {
  const files = readdirSync(ROUTING).filter((f) => f.endsWith('.ts') && !ROUTE_TABLES.has(f));

  it.each(files)('%s imports at run time only routing/ itself, zod and the contract', (file) => {
    const runtime = importsOf(file).filter((i) => !i.typeOnly).map((i) => i.from);
    expect(runtime.filter((from) => !from.startsWith('./') && from !== 'zod' && !from.startsWith('../../contract/'))).toEqual([]);
  });

  it.each(files)('%s takes types only from the contract and the vocabulary of routes', (file) => {
    const outside = importsOf(file)
      .map((i) => i.from)
      .filter((from) => !from.startsWith('./') && from !== 'zod' && !TYPE_SOURCES.has(from));
    expect(outside).toEqual([]);
  });
});
