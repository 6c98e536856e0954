import { readFileSync } from 'node:fs';

/** A problem the user can fix (a flag, a file); the CLI prints it without a stack and exits 2. */
export class UsageError extends Error {}

/**
 * Reads and parses a JSON file the user named, or throws `Problem` (a {@link UsageError} by
 * default) whose message names the file (`what` says which kind: "config file") and the cause.
 */
export function readJsonFile(path: string, what: string, Problem: new (message: string) => Error = UsageError): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Problem(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Problem(`${what} ${path} is not valid JSON: ${(error as Error).message}`);
  }
}
