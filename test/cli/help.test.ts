import { describe, expect, it } from 'vitest';
import { parseCommand, SERVE_HELP, type Command, type ServeOptions } from '../../src/cli/args.js';
import { DEFAULT_STORE_PREFIX } from '../../src/contract/config.js';
import { runCli } from '../helpers/cli.js';

function serveOptions(command: Command): ServeOptions {
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`);
  return command.options;
}

/** Each flag of the serve help with the `(default …)` it shows: `--port` → `8787`. */
function shownDefaults(help: string): Map<string, string> {
  const shown = new Map<string, string>();
  let flag = '';
  for (const line of help.split('\n')) {
    const named = /^ {2}(?:-\w, )?(--[\w-]+)/.exec(line);
    if (named) flag = named[1] as string;
    const value = /\(default ([^):,]+)/.exec(line);
    if (value && flag) shown.set(flag, (value[1] as string).trim());
  }
  return shown;
}

describe('analytics-sim --help, per command', () => {
  it.concurrent('prints only the serve command’s help for serve --help', async () => {
    const result = await runCli(['serve', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(SERVE_HELP);
    expect(result.stdout).toMatch(/^analytics-sim serve: /);
    expect(result.stdout).toContain('--port');
    expect(result.stdout).not.toContain('--target');
    expect(result.stdout).not.toContain('conform');
  });

  it.concurrent('prints only the conform command’s help for conform --help', async () => {
    const result = await runCli(['conform', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^analytics-sim conform: /);
    expect(result.stdout).toContain('--target');
    expect(result.stdout).not.toContain('--port');
  });

  it.concurrent('prints every command’s help for --help alone, and says how to get one command’s', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const text of ['--port', '--target', 'analytics-sim serve --help', 'analytics-sim conform --help']) expect(result.stdout).toContain(text);
  });
});

describe('the defaults serve --help shows', () => {
  const options = serveOptions(parseCommand(['serve']));

  it('are the ones the command applies when the flag is not given', () => {
    const applied: Record<string, string> = {
      '--port': String(options.port),
      '--host': options.host,
      '--seed': options.seed,
      '--clock': `${options.clock}`,
      '--limits': options.limits,
      '--profile': options.profile,
      '--store': String(options.store),
      '--store-prefix': options.storePrefix ?? DEFAULT_STORE_PREFIX,
      '--workers': String(options.workers),
      '--request-timeout': String(options.requestTimeout),
      '--write-timeout': String(options.writeTimeout),
      '--ingest-delay': String(options.ingestDelay),
      '--har-bodies': String(options.harBodies),
      '--har-entries': String(options.harEntries),
      '--max-sandboxes': String(options.maxSandboxes),
      '--sandbox-idle': String(options.sandboxIdle),
    };
    const shown = shownDefaults(SERVE_HELP);
    expect([...shown.keys()].sort()).toEqual(Object.keys(applied).sort());
    for (const [flag, value] of shown) expect(value, flag).toBe(applied[flag]);
  });

  it('show no default for --now: the clock is real unless --now or --clock virtual is given', () => {
    expect(shownDefaults(SERVE_HELP).has('--now')).toBe(false);
    expect(options.clock).toBe('real');
    expect(options.startMs).toBeUndefined();
    expect(SERVE_HELP).toContain('Without it, --clock virtual starts at\n                        2025-06-02T12:00:00Z');
  });
});
