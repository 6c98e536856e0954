import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Where reports named by a bare file name go: git-ignored. */
export const REPORTS_DIR = '.load-reports';

/**
 * Where `--json FILE` and `--report FILE` write: a bare file name (no directory part) goes
 * under {@link REPORTS_DIR}; a path with a directory (`./x.html`, `out/x.html`, `/tmp/x.html`)
 * is used as given.
 */
export function reportPath(file: string): string {
  return basename(file) === file ? join(REPORTS_DIR, file) : file;
}

/**
 * Why `file` (as {@link reportPath} places it) cannot be written, or undefined when it can:
 * checked before a long run, so a bad path fails at once rather than after the measurements.
 * The directories missing on the way are created when the report is written.
 */
export function describeReportPathProblem(flag: string, file: string): string | undefined {
  const path = resolve(reportPath(file));
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) return `${flag} ${file}: ${path} is a directory; give a file name, such as ${join(file, 'report.html')}.`;
    return writable(path) ? undefined : `${flag} ${file}: ${path} cannot be written (permission denied); give a path you may write.`;
  }
  let dir = dirname(path);
  while (!existsSync(dir)) dir = dirname(dir);
  if (!statSync(dir).isDirectory()) return `${flag} ${file}: ${dir} is a file, not a directory, so ${path} cannot be made; give a path under a directory.`;
  return writable(dir) ? undefined : `${flag} ${file}: the directory ${dir} cannot be written (permission denied); give a path in a directory you may write.`;
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
