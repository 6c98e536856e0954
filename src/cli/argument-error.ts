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
