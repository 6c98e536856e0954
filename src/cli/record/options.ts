import { DATE_PRESETS, type DatePreset } from '../../contract/query-request.js';
import { parseBaseUrl } from '../http-url.js';
import { canonicalTimeZone, parseDateInput } from '../../sim/query/engine/dates.js';
import { findQueryType, QUERY_TYPE_NAMES } from '../../sim/query/registry.js';
import { suggest } from '../../sim/text.js';
import { parseFlags } from '../argument-error.js';

/** The range `record` asks: dates as given, or a preset resolved on the recorder's clock when the run starts. */
export type RecordRange = { readonly startDate: string; readonly endDate: string } | { readonly preset: DatePreset };

/** Options of `analytics-sim record`. */
export interface RecordOptions {
  /** The deployment's base URL, without a trailing slash. */
  readonly target: string;
  /** The API key every query sends (`x-api-key`); never printed, never written. */
  readonly key: string;
  /** Websites to record (`--website`); absent: the websites the key reaches, at most {@link DEFAULT_WEBSITES}. */
  readonly websites?: readonly string[];
  /** Query types to record (`--types`); absent: every website type the target's catalogue lists that needs no filter and no paid plan. */
  readonly types?: readonly string[];
  readonly range: RecordRange;
  /** `?timezone=` of every query (default UTC). */
  readonly timezone: string;
  /** Where the recording is written. */
  readonly out: string;
}

/** What `analytics-sim record …` asks for; a member of the CLI's `Command`. */
export type RecordCommand =
  | { readonly kind: 'record'; readonly options: RecordOptions }
  | { readonly kind: 'help'; readonly topic: 'record' }
  | { readonly kind: 'error'; readonly message: string };

/** Websites recorded without `--website`: the first ones the key reaches. */
export const DEFAULT_WEBSITES = 10;

/** The file written without `--out`. */
export const DEFAULT_OUT = 'analytics-sim-recording.json';

/** The range asked without `--range`. */
export const DEFAULT_RANGE: DatePreset = 'last_7d';

/** The record part of `analytics-sim --help`. */
export const RECORD_HELP_SECTION = `Options (record): record a deployment's answers to replay them offline (serve --replay)
  --target <url>        Base URL of the deployment (the live API or a simulator) (required)
  --key <key>           API key the queries send; never printed or written (required)
  --website <id>        Website to record; repeatable or comma-separated (default: the
                        first ${DEFAULT_WEBSITES} websites the key reaches)
  --types <a,b>         Query types to record; repeatable or comma-separated (default:
                        every website type of the target's catalogue that needs no filter
                        and no paid plan)
  --range <r>           A preset (${DATE_PRESETS.slice(0, 4).join(', ')} …), resolved on this machine's
                        clock, or START..END (YYYY-MM-DD or ISO 8601) (default ${DEFAULT_RANGE})
  --timezone <tz>       IANA time zone of the queries (default UTC)
  --out <file>          Where to write the recording (default ${DEFAULT_OUT})
  Exit status: 0 when every parameter asked was recorded, 1 when the recording is
  incomplete (written, marked complete: false, the missing parameters named), 2 for a
  usage error, a target that does not answer or refuses the key.
`;

/** The text of `analytics-sim record --help`. */
export const RECORD_HELP = `analytics-sim record: record a deployment's query answers, to replay them offline

Usage:
  analytics-sim record --target <url> --key <key> [--website <id>] [--types <a,b>]
                       [--range <preset|START..END>] [--timezone <tz>] [--out <file>]

Asks the deployment each query type over the range for each website, within its published
limits (at most 50 types a request, paced under 120 requests a minute, waiting for
X-RateLimit-Reset when X-RateLimit-Remaining reaches 0 and out a 429's Retry-After), and
writes a recording: a versioned JSON file of each parameter asked (type, website, dates,
time zone, filters, paging) and the rows answered. The key and every other credential are
never written. A target that keeps rate-limiting or fails part-way leaves the recording
written with what was answered, complete: false and a missing list naming the rest.

Options:
${RECORD_HELP_SECTION.split('\n').slice(1).join('\n')}
Replay it: analytics-sim serve --replay ${DEFAULT_OUT} (a parameter asked as recorded gets
the recorded rows and a Warning naming it; anything else comes from the generated world).
`;

/** The flags of `record`. */
const RECORD_FLAGS = {
  target: { type: 'string' },
  key: { type: 'string' },
  website: { type: 'string', multiple: true },
  types: { type: 'string', multiple: true },
  range: { type: 'string' },
  timezone: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HINT = "Try 'analytics-sim record --help'.";

/** A list flag's values: repeatable and comma-separated, blanks dropped, duplicates once. */
function listOf(values: readonly string[] | undefined): string[] {
  return [...new Set((values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))];
}

/** `--range`: a preset, or `START..END` with real dates in order; a message when it is neither. */
export function parseRange(text: string): RecordRange | string {
  if ((DATE_PRESETS as readonly string[]).includes(text)) return { preset: text as DatePreset };
  const [startDate, endDate, ...rest] = text.split('..');
  if (startDate === undefined || endDate === undefined || rest.length > 0) {
    const near = suggest(text, DATE_PRESETS);
    return `--range must be a preset (${DATE_PRESETS.join(', ')}) or START..END such as 2025-05-26..2025-06-01 (got '${text}').${near ? ` Did you mean ${near}?` : ''}`;
  }
  const from = parseDateInput(startDate);
  const to = parseDateInput(endDate);
  if (!from || !to) return `--range: ${!from ? startDate : endDate} is not a date; use YYYY-MM-DD or an ISO 8601 instant.`;
  if (from.ms > to.ms) return `--range: ${startDate} is after ${endDate}.`;
  return { startDate, endDate };
}

/** Parses the arguments after `record`. Never throws: bad input becomes an `error` command. */
export function parseRecordCommand(argv: readonly string[]): RecordCommand {
  const parsed = parseFlags(argv, RECORD_FLAGS, HINT);
  if (typeof parsed === 'string') return { kind: 'error', message: parsed };
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help', topic: 'record' };
  if (positionals.length > 0) return { kind: 'error', message: `Unexpected argument '${positionals[0]}'. ${HINT}` };
  if (values.target === undefined) return { kind: 'error', message: `record needs --target <url>: the deployment to record (e.g. https://api.databuddy.cc). ${HINT}` };
  if (values.key === undefined || values.key.length === 0) return { kind: 'error', message: `record needs --key <key>: an API key of the deployment with read:data. ${HINT}` };
  const target = parseBaseUrl(values.target);
  if (target === null) return { kind: 'error', message: `--target must be an http(s) URL such as http://127.0.0.1:8787 (got '${values.target}').` };
  const types = listOf(values.types);
  for (const name of types) {
    const type = findQueryType(name);
    if (!type) {
      const near = suggest(name, QUERY_TYPE_NAMES);
      return { kind: 'error', message: `--types: '${name}' is not a query type.${near ? ` Did you mean ${near}?` : ''} GET /v1/query/types lists them.` };
    }
    if (type.target !== 'website') return { kind: 'error', message: `--types: ${name} is a ${type.target} type; record asks website types only.` };
  }
  const websites = listOf(values.website);
  if (values.website !== undefined && websites.length === 0) return { kind: 'error', message: '--website needs an id (got an empty value).' };
  const range = parseRange(values.range ?? DEFAULT_RANGE);
  if (typeof range === 'string') return { kind: 'error', message: range };
  const timezone = values.timezone === undefined ? 'UTC' : canonicalTimeZone(values.timezone);
  if (timezone === null) return { kind: 'error', message: `--timezone must be an IANA time zone such as Europe/Berlin (got '${values.timezone}').` };
  if (values.out !== undefined && values.out.trim() === '') return { kind: 'error', message: '--out needs a file name (got an empty value).' };
  return {
    kind: 'record',
    options: {
      target,
      key: values.key,
      ...(websites.length > 0 ? { websites } : {}),
      ...(types.length > 0 ? { types } : {}),
      range,
      timezone,
      out: values.out ?? DEFAULT_OUT,
    },
  };
}
