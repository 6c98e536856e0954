import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { processDeps } from '../conform/command.js';
import type { RecordingInput } from '../../contract/recording.js';
import type { ConformDeps } from '../conform/client.js';
import type { RecordOptions } from './options.js';
import { RecordAbort, runRecording, type RecordingRun } from './run.js';

/** Where the command writes: the recording file, and its summary lines (stdout, stderr). */
export interface RecordOutput {
  /** Writes the recording text to `path` whole (default: a temporary file renamed over it). */
  readonly writeFile?: (path: string, text: string) => void;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Writes `text` to a temporary file beside `path`, then renames it: a reader never sees half a recording. */
function writeWhole(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.partial`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new RecordAbort(`cannot write the recording to ${path}: ${(error as Error).message}. Choose another file with --out.`);
  }
}

/** The recording as text: its head field by field, then one entry a line (readable, diffable). */
export function formatRecording(recording: RecordingInput): string {
  const { entries, ...head } = recording;
  const top = JSON.stringify(head, null, 2).replace(/\n\}$/, '');
  const lines = entries.map((entry) => `    ${JSON.stringify(entry)}`);
  return `${top},\n  "entries": [${lines.length > 0 ? `\n${lines.join(',\n')}\n  ` : ''}]\n}\n`;
}

/** The summary of a run: what was recorded and from where (never the key). */
function summaryOf(run: RecordingRun, options: RecordOptions): string {
  const { entries } = run.recording;
  const lines = [
    `recorded ${entries.length} parameter${entries.length === 1 ? '' : 's'} (${run.types.length} type${run.types.length === 1 ? '' : 's'} on ${run.websites.join(', ')}, ${entries[0]?.startDate ?? ''}..${entries[0]?.endDate ?? ''}) from ${options.target} into ${options.out}`,
    ...run.notes.map((note) => `  ${note}`),
    `  replay it: analytics-sim serve --replay ${options.out}`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * `analytics-sim record`: records, writes the recording (also a partial one) and returns the exit
 * status: 0 when every parameter asked was recorded, 1 when some are missing (they are named
 * on stderr and in the file), 2 when the target refused the key part-way. A run that cannot
 * start throws {@link RecordAbort} (a usage error: exit 2), and nothing is written.
 */
export async function recordCommand(options: RecordOptions, output: RecordOutput, deps: ConformDeps = processDeps()): Promise<0 | 1 | 2> {
  const run = await runRecording(options, deps);
  (output.writeFile ?? writeWhole)(options.out, formatRecording(run.recording));
  output.stdout(summaryOf(run, options));
  if (run.missing.length === 0) return 0;
  const shown = run.missing.slice(0, 20).map((line) => `  ${line}`);
  const more = run.missing.length > 20 ? [`  and ${run.missing.length - 20} more (the file's missing list names them)`] : [];
  output.stderr(
    `analytics-sim: the recording is incomplete (complete: false), ${run.missing.length} missing:\n${[...shown, ...more].join('\n')}\n${run.refused ? `${run.refused}: pass an API key of that deployment with read:data with --key.\n` : ''}`,
  );
  return run.refused ? 2 : 1;
}
