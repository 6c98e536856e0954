import { basename, join } from 'node:path';

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
