import { parseArgs, type ParseArgsConfig } from 'node:util';
import { suggest } from '../sim/text.js';

/**
 * One readable line for what `parseArgs` refused: an unknown flag gets the closest of `flags`
 * ("Did you mean --port?"), then `hint` (where to read the usage).
 */
export function describeArgumentError(error: Error & { code?: string }, flags: readonly string[], hint: string): string {
  const unknown = /Unknown option '([^']{1,100})/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown !== undefined) {
    const near = unknown.startsWith('--') ? suggest(unknown, flags) : undefined;
    return `unknown option '${unknown}'.${near ? ` Did you mean ${near}?` : ''} ${hint}`;
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${error.message.replace(/\.$/, '')}. ${hint}`;
  return error.message;
}

/** The options of a command's flags, as `parseArgs` takes them. */
export type FlagOptions = NonNullable<ParseArgsConfig['options']>;

/** What {@link parseFlags} read: the flags' values and the positionals. */
export type ParsedFlags<O extends FlagOptions> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>;

/**
 * Reads a command's arguments with `parseArgs` (strict, positionals allowed). Never throws: what
 * it refuses comes back as one readable line ({@link describeArgumentError}; "did you mean"
 * among the options' long flags, then `hint`).
 */
export function parseFlags<const O extends FlagOptions>(argv: readonly string[], options: O, hint: string): ParsedFlags<O> | string {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    return describeArgumentError(error as Error & { code?: string }, Object.keys(options).map((name) => `--${name}`), hint);
  }
}
