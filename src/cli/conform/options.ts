import { suggest } from '../../sim/text.js';
import { parseBaseUrl } from '../http-url.js';
import { QUERY_TYPE_NAMES } from '../../sim/query/registry.js';
import { parseFlags } from '../argument-error.js';
import { CONFORM_GROUPS, type ConformGroup } from './report.js';

/** Options of `analytics-sim conform`. */
export interface ConformOptions {
  /** The deployment's base URL, without a trailing slash (`https://api.databuddy.cc`, `http://127.0.0.1:8787`). */
  readonly target: string;
  /** The API key every authenticated check sends (`x-api-key`); never printed. */
  readonly key: string;
  /** Website id for the website query types and the auth checks. */
  readonly website?: string;
  /** Short-link id for the link query types. */
  readonly link?: string;
  /** Uptime schedule (monitor) id for the uptime query types. */
  readonly schedule?: string;
  /** Print the machine-readable report instead of the table. */
  readonly json: boolean;
  /** The groups to run, in table order (every group without `--only`). */
  readonly groups: readonly ConformGroup[];
  /** The query types the shapes group runs (`--type`); every live type when absent. */
  readonly types?: readonly string[];
  /** Files to write the report to besides the output (`--report junit FILE`, `--report json FILE`), in the order given. */
  readonly reports?: readonly ReportFile[];
}

/** The formats `--report` writes. */
export const REPORT_FORMATS = ['junit', 'json'] as const;

/** One `--report FORMAT FILE`. */
export interface ReportFile {
  /** `junit`: JUnit XML, a test case per check (CI systems show each drift by name); `json`: the `--json` report. */
  readonly format: (typeof REPORT_FORMATS)[number];
  readonly file: string;
}

/** What `analytics-sim conform …` asks for; a member of the CLI's `Command`. */
export type ConformCommand =
  | { readonly kind: 'conform'; readonly options: ConformOptions }
  | { readonly kind: 'help'; readonly topic: 'conform' }
  | { readonly kind: 'error'; readonly message: string };

/** The conform part of `analytics-sim --help`. */
export const CONFORM_HELP_SECTION = `Options (conform): check a deployment (the live API or a simulator) against the live contract
  --target <url>        Base URL of the deployment, e.g. https://api.databuddy.cc or
                        http://127.0.0.1:8787 (required)
  --key <key>           API key the checks send; never printed (required)
  --website <id>        Website the website query types and auth checks use
  --link <id>           Short link the link query types use
  --schedule <id>       Uptime schedule (monitor) the uptime query types use
  --only <group>        Run only these groups: ${CONFORM_GROUPS.join(', ')};
                        repeatable or comma-separated (default all)
  --type <name>         The shapes group runs only these query types; repeatable or
                        comma-separated (default all ${QUERY_TYPE_NAMES.length})
  --json                Print a machine-readable report instead of the table
  --report <fmt> <file> Also write the report to a file: junit (JUnit XML, one test case
                        per check) or json; repeatable
  --fail-on-drift       Exit 1 when anything differs (what conform always does; the
                        explicit spelling for scheduled jobs)
  Exit status: 0 when everything checked matches, 1 when something differs, 2 for a
  usage error or a target that does not answer. docs/conform.md explains each check.
`;

/** The text of `analytics-sim conform --help`. */
export const CONFORM_HELP = `analytics-sim conform: does a deployment answer as the live Databuddy Query API does?

Usage:
  analytics-sim conform --target <url> --key <key> [--website <id>] [--link <id>]
                        [--schedule <id>] [--only <group>] [--type <name>] [--json]
                        [--report junit|json <file>] [--fail-on-drift]

Runs black-box checks against the deployment and prints, per check, what the live service
does, what the target did, and ✓ (matches), ✗ (differs) or skipped (with the reason):
  catalogue  GET /v1/query/types: the 155 live types, their allowedFilters, customizable,
             defaultLimit, publicAccess and meta (snake_case output_fields objects)
  shapes     POST /v1/query over the last 7 days for every type: success, row keys exactly
             the live fields in order, value types (types of a target without its id are
             skipped); at most 50 types per request, paced under 120 requests a minute,
             waiting out a 429's Retry-After
  auth       no key on a website: 401 AUTH_REQUIRED with WWW-Authenticate; a malformed
             key: 401; an unknown website: 403 ACCESS_DENIED
  limits     X-RateLimit-* on an admitted answer (reported as seen), Retry-After on any
             429 met, X-Request-ID req_ + 16 characters on every answer
  errors     unknown type: 400 VALIDATION_ERROR with a did-you-mean; malformed JSON: 400
             PARSE; no dates: 400 with startDate and endDate details

Options:
${CONFORM_HELP_SECTION.split('\n').slice(1).join('\n')}
Against a local simulator:
  analytics-sim serve --profile live &
  KEY=$(curl -s http://127.0.0.1:8787/__sim/fixtures | jq -r '.apiKeys[] | select(.id=="key_acme_all") | .secret')
  analytics-sim conform --target http://127.0.0.1:8787 --key "$KEY" \\
    --website web_acme_store --link link_acme_launch --schedule mon_acme_store
`;

/** The flags of `conform`. */
const CONFORM_FLAGS = {
  target: { type: 'string' },
  key: { type: 'string' },
  website: { type: 'string' },
  link: { type: 'string' },
  schedule: { type: 'string' },
  only: { type: 'string', multiple: true },
  type: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  report: { type: 'string', multiple: true },
  'fail-on-drift': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HINT = "Try 'analytics-sim conform --help'.";

/** Parses the arguments after `conform`. Never throws: bad input becomes an `error` command. */
export function parseConformCommand(argv: readonly string[]): ConformCommand {
  const parsed = parseFlags(joinReportFiles(argv), CONFORM_FLAGS, HINT);
  if (typeof parsed === 'string') return { kind: 'error', message: parsed };
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help', topic: 'conform' };
  if (positionals.length > 0) return { kind: 'error', message: `Unexpected argument '${positionals[0]}'. ${HINT}` };
  if (values.target === undefined) return { kind: 'error', message: `conform needs --target <url>: the deployment to check (e.g. http://127.0.0.1:8787). ${HINT}` };
  if (values.key === undefined || values.key.length === 0) return { kind: 'error', message: `conform needs --key <key>: an API key of the deployment (read:data; read:monitors for uptime). ${HINT}` };
  const target = parseBaseUrl(values.target);
  if (target === null) return { kind: 'error', message: `--target must be an http(s) URL such as http://127.0.0.1:8787 (got '${values.target}').` };
  const groups: ConformGroup[] = [];
  for (const entry of (values.only ?? []).flatMap((v) => v.split(','))) {
    const name = entry.trim();
    if (name === '') continue;
    if (!(CONFORM_GROUPS as readonly string[]).includes(name)) {
      const near = suggest(name, CONFORM_GROUPS);
      return { kind: 'error', message: `--only: unknown group '${name}'.${near ? ` Did you mean ${near}?` : ''} Groups: ${CONFORM_GROUPS.join(', ')}.` };
    }
    groups.push(name as ConformGroup);
  }
  const types: string[] = [];
  for (const name of (values.type ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)) {
    if (!QUERY_TYPE_NAMES.includes(name)) {
      const near = suggest(name, QUERY_TYPE_NAMES);
      return { kind: 'error', message: `--type: '${name}' is not a live query type.${near ? ` Did you mean ${near}?` : ''} GET /v1/query/types lists them.` };
    }
    if (!types.includes(name)) types.push(name);
  }
  const reports: ReportFile[] = [];
  for (const given of values.report ?? []) {
    const report = parseReportFile(given);
    if (typeof report === 'string') return { kind: 'error', message: report };
    reports.push(report);
  }
  for (const [flag, value] of [['--website', values.website], ['--link', values.link], ['--schedule', values.schedule]] as const) {
    if (value !== undefined && value.trim() === '') return { kind: 'error', message: `${flag} needs an id (got an empty value).` };
  }
  return {
    kind: 'conform',
    options: {
      target,
      key: values.key,
      ...(values.website !== undefined ? { website: values.website } : {}),
      ...(values.link !== undefined ? { link: values.link } : {}),
      ...(values.schedule !== undefined ? { schedule: values.schedule } : {}),
      json: values.json ?? false,
      groups: groups.length > 0 ? CONFORM_GROUPS.filter((g) => groups.includes(g)) : [...CONFORM_GROUPS],
      ...(types.length > 0 ? { types } : {}),
      ...(reports.length > 0 ? { reports } : {}),
    },
  };
}

/** `--report FORMAT FILE` (two words after the flag) as the one value `FORMAT=FILE` the flag parser reads. */
function joinReportFiles(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const format = arg === '--report' ? argv[i + 1] : arg.startsWith('--report=') ? arg.slice('--report='.length) : undefined;
    const file = argv[i + (arg === '--report' ? 2 : 1)];
    if (format !== undefined && !format.includes('=') && file !== undefined && !file.startsWith('-')) {
      out.push(`--report=${format}=${file}`);
      i += arg === '--report' ? 2 : 1;
    } else out.push(arg);
  }
  return out;
}

/** One `--report` value (`FORMAT=FILE`), or the message saying what it takes. */
function parseReportFile(value: string): ReportFile | string {
  const at = value.indexOf('=');
  const format = at < 0 ? value : value.slice(0, at);
  const file = at < 0 ? '' : value.slice(at + 1);
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    const near = suggest(format, REPORT_FORMATS);
    return `--report takes a format, ${REPORT_FORMATS.join(' or ')}, then a file (got '${format}').${near ? ` Did you mean ${near}?` : ''} ${HINT}`;
  }
  if (file === '') return `--report ${format} needs a file to write, e.g. --report ${format} conform.${format === 'junit' ? 'xml' : 'json'}. ${HINT}`;
  return { format: format as ReportFile['format'], file };
}
