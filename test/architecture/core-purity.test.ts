import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The core (`src/sim`, with `src/contract`) compiles under its own configuration,
 * `tsconfig.core.json`, without Node's types: a timer, `process` or a `node:` module named in
 * it fails to compile (the wall clock and `Math.random` stay ESLint's to refuse). `npm run
 * typecheck` compiles the whole core so; these tests show what that configuration refuses.
 */
const ROOT = join(import.meta.dirname, '..', '..');

/** The core's compiler options, read from tsconfig.core.json as `tsc -p` reads them. */
function coreOptions(): ts.CompilerOptions {
  const file = join(ROOT, 'tsconfig.core.json');
  const read = ts.readConfigFile(file, (path) => readFileSync(path, 'utf8'));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT).options;
}

/** The diagnostics of one core module with `source` as its text, compiled as the core is. */
function compileInCore(source: string): string[] {
  const options = coreOptions();
  const probe = join(ROOT, 'src', 'sim', 'purity-probe.ts');
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (path) => (path === probe ? source : readFile(path));
  host.fileExists = (path) => path === probe || fileExists(path);
  const program = ts.createProgram({ rootNames: [probe, join(ROOT, 'types', 'core-globals.d.ts')], options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('the core compiles without Node', () => {
  it.each([
    ['process', 'export const env = process.env.HOME;', /Cannot find name 'process'/],
    ['setTimeout', 'export const wait = (f: () => void) => setTimeout(f, 10);', /Cannot find name 'setTimeout'/],
    ['a node: module', "import { randomBytes } from 'node:crypto';\nexport const bytes = randomBytes(4);", /Cannot find module 'node:crypto'/],
  ])('fails to compile a core module that names %s', (_name, source, error) => {
    const errors = compileInCore(source);
    expect(errors.some((e) => error.test(e))).toBe(true);
  }, 60_000);

  it('compiles a core module that uses only the language and the web-standard URL', () => {
    expect(compileInCore("export const host = new URL('https://acme.io/a').hostname;")).toEqual([]);
  }, 60_000);
});
