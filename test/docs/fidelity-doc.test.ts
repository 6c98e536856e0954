import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROFILE_SWITCHES } from '../../src/sim/profile.js';

/**
 * docs/fidelity.md holds the reference sheets fact by fact: one table row per fact, with the
 * profile it applies to and the tests that hold it (or why none does). These checks keep the
 * page honest as tests are renamed or added.
 */

const ROOT = new URL('../../', import.meta.url);
const PAGE = readFileSync(new URL('docs/fidelity.md', ROOT), 'utf8');

interface Row {
  readonly line: number;
  readonly id: string;
  readonly behaviour: string;
  readonly profile: string;
  readonly heldBy: string;
}

/** A citation: `test/<path>.test.ts` › "<title>". */
interface Citation {
  readonly file: string;
  readonly title: string;
}

/** The cells of a table line, split on pipes that are not escaped, with `\|` read back as `|`. */
function cellsOf(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** Every fact row: the table lines whose first cell is an id (header and rule lines excluded). */
function rowsOf(page: string): Row[] {
  return page.split('\n').flatMap((text, index) => {
    if (!text.startsWith('|') || /^\|\s*(id|-+)\s*\|/.test(text)) return [];
    const [id = '', behaviour = '', profile = '', heldBy = ''] = cellsOf(text);
    return [{ line: index + 1, id, behaviour, profile, heldBy }];
  });
}

const CITATION = /^`(test\/[^`]+\.test\.ts)` › "(.*)"$/;
const CITED_IN_TEXT = /`?(test\/[\w./-]+\.test\.ts)`? › "([^"]+)"/g;

/** The citations of a held-by cell made only of citations (joined by <br>), or null if it is not one. */
function citationsOf(cell: string): Citation[] | null {
  const parts = cell.split('<br>').map((part) => part.trim());
  const citations = parts.map((part) => CITATION.exec(part));
  if (citations.some((match) => match === null)) return null;
  return citations.map((match) => ({ file: match?.[1] as string, title: match?.[2] as string }));
}

const isReason = (cell: string): boolean => /^(not held|pending): \S/.test(cell);

const rows = rowsOf(PAGE);
const SWITCHES = new Set<string>(PROFILE_SWITCHES.map((s) => s.name));
const fileText = new Map<string, string>();
function textOf(file: string): string | undefined {
  if (!fileText.has(file)) {
    const url = new URL(file, ROOT);
    fileText.set(file, existsSync(url) ? readFileSync(url, 'utf8') : '');
  }
  return fileText.get(file) || undefined;
}

describe('docs/fidelity.md', () => {
  it('has fact rows for each of the three reference sheets', () => {
    expect(rows.length).toBeGreaterThan(100);
    for (const prefix of ['OS-', 'LI-', 'LC-']) expect(rows.some((row) => row.id.startsWith(prefix)), prefix).toBe(true);
  });

  it('gives every row an id of the form OS-, LI- or LC- followed by its section and topic', () => {
    for (const row of rows) expect(row.id, `line ${row.line}`).toMatch(/^(OS|LI|LC)-[A-Za-z0-9][\w.-]*$/);
  });

  it('never uses an id twice', () => {
    const seen = new Map<string, number>();
    const repeated: string[] = [];
    for (const row of rows) {
      const first = seen.get(row.id);
      if (first !== undefined) repeated.push(`${row.id} (lines ${first} and ${row.line})`);
      else seen.set(row.id, row.line);
    }
    expect(repeated).toEqual([]);
  });

  it('states the live behaviour of every row', () => {
    for (const row of rows) expect(row.behaviour.length, `${row.id} has no behaviour`).toBeGreaterThan(10);
  });

  it('names a profile for every row: both, live, or the spec switch that differs', () => {
    for (const row of rows) {
      const differs = /^spec differs: (.+)$/.exec(row.profile);
      if (differs) expect(SWITCHES.has(differs[1] as string), `${row.id}: no switch named ${differs[1]}`).toBe(true);
      else expect(['both', 'live'], `${row.id}: profile ${JSON.stringify(row.profile)}`).toContain(row.profile);
    }
  });

  it('holds every row by cited tests, or says why not with not held: or pending:', () => {
    for (const row of rows) {
      expect(isReason(row.heldBy) || citationsOf(row.heldBy) !== null, `${row.id}: ${row.heldBy.slice(0, 120)}`).toBe(true);
    }
  });

  it('cites only test files that exist and contain the quoted title', () => {
    const missing: string[] = [];
    for (const row of rows) {
      const cited = citationsOf(row.heldBy) ?? [...row.heldBy.matchAll(CITED_IN_TEXT)].map((m) => ({ file: m[1] as string, title: m[2] as string }));
      for (const { file, title } of cited) {
        const text = textOf(file);
        if (text === undefined) missing.push(`${row.id}: no file ${file}`);
        else if (!text.includes(title)) missing.push(`${row.id}: ${file} has no test "${title}"`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('states totals that match the rows', () => {
    const pending = rows.filter((row) => row.heldBy.startsWith('pending:')).length;
    const notHeld = rows.filter((row) => row.heldBy.startsWith('not held:')).length;
    const held = rows.length - pending - notHeld;
    expect(PAGE).toContain(`**Totals**: ${rows.length} rows: ${held} held, ${notHeld} not held, ${pending} pending.`);
  });
});
