import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { MAX_RECORDING_BYTES } from '../../contract/recording.js';
import { createReplayIndex } from '../../sim/query/engine/replay-index.js';
import { UsageError } from '../read-json-file.js';

/**
 * Reads the recording `serve --replay FILE` answers from: at most {@link MAX_RECORDING_BYTES}
 * (a larger file is refused before it is read), parsed and checked as `createSimulator` checks
 * it, so a refused recording stops the command before anything starts. Throws a
 * {@link UsageError} naming the file and the entry (index and path) of each problem.
 */
export function readRecordingFile(path: string): unknown {
  let text: string;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    if (size > MAX_RECORDING_BYTES) {
      throw new UsageError(`recording ${path} is ${size} bytes, over the ${MAX_RECORDING_BYTES} a recording may have: record fewer websites, types or a shorter range.`);
    }
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    text = buffer.subarray(0, read).toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read recording ${path}: ${(error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`recording ${path} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    createReplayIndex(parsed);
  } catch (error) {
    throw new UsageError(`recording ${path}: ${(error as Error).message.replace(/^recording refused: /, '')}. Fix the entry or record it again with analytics-sim record.`);
  }
  return parsed;
}
