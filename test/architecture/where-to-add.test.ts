import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md's "Where do I add …" table names one place for each kind of change; a
 * newcomer follows it from the tree alone. Every path it names must exist: a moved file or
 * folder fails here until the table follows it.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const architecture = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

/** The rows of the table under the "Where do I add" heading: [what, where]. */
function tableRows(): [string, string][] {
  const start = architecture.indexOf('## Where do I add');
  const section = architecture.slice(start, architecture.indexOf('\n## ', start + 1) === -1 ? undefined : architecture.indexOf('\n## ', start + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()) as [string, string]);
}

/** The repository paths a cell names in backticks (anything with a slash that is not a URL). */
function pathsIn(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string).filter((text) => text.includes('/') && !text.includes('://') && !text.startsWith('/'));
}

/** Whether a named path exists; `<name>` stands for any entry of its folder (at least one must exist). */
function exists(path: string): boolean {
  const placeholder = path.indexOf('<');
  if (placeholder === -1) return existsSync(join(ROOT, path));
  const parent = join(ROOT, dirname(path.slice(0, placeholder) + 'x'));
  return existsSync(parent) && statSync(parent).isDirectory() && readdirSync(parent).length > 0;
}

describe('ARCHITECTURE.md: where do I add …', () => {
  const rows = tableRows();

  it('has one row for each kind of change a newcomer makes', () => {
    const kinds = rows.map(([what]) => what.toLowerCase());
    for (const kind of ['a query type', 'a query family', 'a route', 'an ingestion route', 'a limit rule', 'a scenario effect', 'a profile switch']) {
      expect(kinds.some((k) => k.startsWith(kind)), kind).toBe(true);
    }
  });

  it.each(rows.map(([what, where]) => [what, where] as const))('names places that exist for %s', (_what, where) => {
    const paths = pathsIn(where);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(exists(path), path).toBe(true);
  });
});
