import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * What the package holds, as `npm pack --dry-run` lists it (without running `prepare`: no
 * build), against what the README promises a user who reads it from node_modules: every page
 * it links to is in the package, and every install line works today or says it does not yet.
 */

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string; repository?: unknown; homepage?: unknown; bugs?: unknown };

function packedPaths(): Set<string> {
  const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`npm pack --dry-run exited ${result.status}:\n${result.stderr}`);
  const [report] = JSON.parse(result.stdout) as { files: { path: string }[] }[];
  return new Set((report?.files ?? []).map((f) => f.path));
}

/** The relative link targets of a markdown file (no URL, no anchor of the same page), resolved from the package root. */
function relativeLinks(path: string): string[] {
  const text = readFileSync(join(REPO_ROOT, path), 'utf8');
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const links: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = (match[1] as string).split('#')[0] as string;
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const parts = [...(dir ? dir.split('/') : []), ...target.split('/')];
    const resolved: string[] = [];
    for (const part of parts) {
      if (part === '..') resolved.pop();
      else if (part !== '.' && part !== '') resolved.push(part);
    }
    links.push(resolved.join('/'));
  }
  return links;
}

describe('the package as a user meets it', () => {
  const packed = packedPaths();
  const pages = ['README.md', ...[...packed].filter((p) => p.endsWith('.md') && p !== 'README.md')];

  it('holds every page the README and the pages it ships link to', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/testing.md', 'docs/routes.md', 'ARCHITECTURE.md']));
    const missing: string[] = [];
    for (const page of pages) {
      for (const target of relativeLinks(page)) {
        const found = packed.has(target) || [...packed].some((p) => p.startsWith(`${target}/`));
        if (!found) missing.push(`${page} → ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('installs analytics-sim by name only where the line or the one beside it says "once … published" (or that it is not on the registry yet)', () => {
    const unpublished: string[] = [];
    for (const page of pages) {
      const lines = readFileSync(join(REPO_ROOT, page), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!/\bnpm (install|i|add)\b[^`]*\sanalytics-sim(\s|`|$)/.test(line)) return;
        const around = `${lines[i - 1] ?? ''} ${line} ${lines[i + 1] ?? ''}`;
        if (!/once [^.]*published|not on the npm registry yet/.test(around)) unpublished.push(`${page}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(unpublished).toEqual([]);
  });

  it('names the tarball npm pack writes (name-version.tgz) wherever an install line takes one', () => {
    const tarball = `${manifest.name}-${manifest.version}.tgz`;
    for (const page of pages) {
      for (const name of readFileSync(join(REPO_ROOT, page), 'utf8').match(/analytics-sim-[\w.-]+\.tgz/g) ?? []) expect(name, page).toBe(tarball);
    }
  });

  it('keeps npm pack’s tarball out of git', () => {
    const ignored = spawnSync('git', ['check-ignore', '-q', `${manifest.name}-${manifest.version}.tgz`], { cwd: REPO_ROOT });
    expect(ignored.status).toBe(0);
  });

  it('names no placeholder as its repository, homepage or bugs address', () => {
    const addresses = JSON.stringify([manifest.repository, manifest.homepage, manifest.bugs]);
    expect(addresses).not.toMatch(/<|>|example\.(com|org)|\bOWNER\b/i);
  });
});
