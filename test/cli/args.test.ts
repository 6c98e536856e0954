import { describe, expect, it } from 'vitest';
import { HELP, parseCommand, type Command, type ServeOptions } from '../../src/cli/args.js';

const DEFAULTS: ServeOptions = { port: 8787, host: '127.0.0.1', seed: '42', clock: 'real', startMs: undefined, log: false, scenarios: [], limits: 'enforce', allowedOrigins: [], strict: false, profile: 'spec', store: 'memory', storePrefix: undefined, workers: 1, requestTimeout: 30, writeTimeout: 30, ingestDelay: 0, trustProxy: false, controlToken: undefined, harBodies: 0, harEntries: 100, otlpEndpoint: undefined, replay: undefined, maxSandboxes: 64, sandboxIdle: 900 };

function serveOptions(command: Command): ServeOptions {
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${JSON.stringify(command)}`);
  return command.options;
}

function errorMessage(command: Command): string {
  if (command.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(command)}`);
  return command.message;
}

describe('parseCommand defaults', () => {
  it('serves on 127.0.0.1:8787 with seed 42 and the real clock when given nothing', () => {
    expect(parseCommand([])).toEqual({ kind: 'serve', options: DEFAULTS, given: [] });
  });

  it('gives the same defaults for an explicit serve', () => {
    expect(parseCommand(['serve'])).toEqual({ kind: 'serve', options: DEFAULTS, given: [] });
  });

  it('says which options the command line gave, and the --config path', () => {
    expect(parseCommand(['serve', '--now', '0', '--strict', '--config', 'sim.json'])).toMatchObject({ given: ['clock', 'startMs', 'strict'], configPath: 'sim.json' });
  });
});

describe('parseCommand flags', () => {
  it.each([
    [['--port', '0'], { port: 0 }],
    [['--replay', 'recording.json'], { replay: 'recording.json' }],
    [['--max-sandboxes', '8'], { maxSandboxes: 8 }],
    [['--max-sandboxes', '0'], { maxSandboxes: 0 }],
    [['--sandbox-idle', '30'], { sandboxIdle: 30 }],
    [['--port', '65535'], { port: 65535 }],
    [['--port=9000'], { port: 9000 }],
    [['--host', '0.0.0.0'], { host: '0.0.0.0' }],
    [['--host', '::1'], { host: '::1' }],
    [['--seed', 'ci-run-7'], { seed: 'ci-run-7' }],
    [['--clock', 'virtual'], { clock: 'virtual' }],
    [['--clock', 'real'], { clock: 'real' }],
    [['--now', '2024-05-31T00:00:00Z'], { clock: 'virtual', startMs: Date.UTC(2024, 4, 31) }],
    [['--now', '2024-05-31T02:00:00+02:00'], { clock: 'virtual', startMs: Date.UTC(2024, 4, 31) }],
    [['--now', '1717113600000'], { clock: 'virtual', startMs: 1_717_113_600_000 }],
    [['--clock', 'virtual', '--now', '1717113600000'], { clock: 'virtual', startMs: 1_717_113_600_000 }],
    [['--strict'], { strict: true }],
    [['--log'], { log: true }],
    [['--allowed-origin', 'http://localhost:5173'], { allowedOrigins: ['http://localhost:5173'] }],
    [['--allowed-origin', 'HTTPS://App.Example/', '--allowed-origin', 'http://localhost:*'], { allowedOrigins: ['https://app.example', 'http://localhost:*'] }],
    [['--allowed-origin', '*'], { allowedOrigins: ['*'] }],
  ] as const)('reads serve %j', (flags, expected) => {
    expect(serveOptions(parseCommand(['serve', ...flags]))).toEqual({ ...DEFAULTS, ...expected });
  });

  it('reads every flag together', () => {
    const command = parseCommand([
      'serve', '--port', '0', '--host', 'localhost', '--seed', 's', '--clock', 'virtual',
      '--now', '2025-01-01T00:00:00.000Z', '--log', '--scenario', 'outage-window', '--scenario', 'my-faults.json', '--limits', 'off',
    ]);
    expect(serveOptions(command)).toEqual({
      port: 0,
      host: 'localhost',
      seed: 's',
      clock: 'virtual',
      startMs: Date.UTC(2025, 0, 1),
      log: true,
      scenarios: ['outage-window', 'my-faults.json'],
      limits: 'off',
      allowedOrigins: [],
      strict: false,
      profile: 'spec',
      store: 'memory',
      storePrefix: undefined,
      workers: 1,
      requestTimeout: 30,
      writeTimeout: 30,
      ingestDelay: 0,
      trustProxy: false,
      controlToken: undefined,
      harBodies: 0,
      harEntries: 100,
      maxSandboxes: 64,
      sandboxIdle: 900,
    });
  });

  it('reads --profile live, and refuses a profile that does not exist naming the two', () => {
    expect(serveOptions(parseCommand(['serve', '--profile', 'live'])).profile).toBe('live');
    expect(parseCommand(['serve', '--profile', 'prod'])).toEqual({ kind: 'error', message: "--profile must be spec or live (got 'prod')." });
  });

  it.each([['--help'], ['-h'], ['--port', 'abc', '--help']])('asks for every command’s help with %j', (...argv) => {
    expect(parseCommand(argv)).toEqual({ kind: 'help' });
  });

  it.each([['serve', '--help'], ['serve', '-h'], ['serve', '--port', 'abc', '--help']])('asks for the serve command’s own help with %j', (...argv) => {
    expect(parseCommand(argv)).toEqual({ kind: 'help', topic: 'serve' });
  });

  it.each([['--version'], ['-v']])('asks for the version with %s', (flag) => {
    expect(parseCommand([flag])).toEqual({ kind: 'version' });
  });

  it('documents every flag in the help text', () => {
    for (const flag of ['--port', '--host', '--seed', '--clock', '--now', '--scenario', '--limits', '--allowed-origin', '--strict', '--log', '--help', '--version']) expect(HELP).toContain(flag);
    expect(HELP).toMatch(/Usage/);
  });
});

describe('parseCommand errors', () => {
  it.each([
    [['--port', 'abc'], /--port/],
    [['--port', '70000'], /--port/],
    [['--port', '1.5'], /--port/],
    [['--port', ''], /--port/],
    [['--port', '-1'], /port/],
    [['--port'], /port/],
    [['--clock', 'fast'], /--clock.*real or virtual/],
    [['--now', 'yesterday'], /--now/],
    [['--now', '2024-13-45'], /--now/],
    [['--now', '2024-02-30'], /--now/],
    [['--now', '2024-06-01junk'], /--now/],
    [['--now', '99999999999999999999'], /--now/],
    [['--seed', ''], /--seed/],
    [['--seed', 'x'.repeat(129)], /--seed/],
    [['--request-timeout', 'soon'], /--request-timeout must be seconds from 0 to 3600/],
    [['--request-timeout', '3601'], /--request-timeout/],
    [['--write-timeout', '-1'], /write-timeout/],
    [['--ingest-delay', '1.5'], /--ingest-delay must be whole milliseconds from 0 to 86400000 \(got '1\.5'\)/],
    [['--ingest-delay', '86400001'], /--ingest-delay/],
    [['--ingest-delay', 'soon'], /--ingest-delay/],
    [['--max-sandboxes', '1025'], /--max-sandboxes must be a whole number from 0 to 1024 \(got '1025'\)/],
    [['--max-sandboxes', 'many'], /--max-sandboxes/],
    [['--sandbox-idle', '1.5'], /--sandbox-idle must be whole seconds from 0 to 86400 \(got '1\.5'\)/],
    [['--control-token', 'short'], /--control-token must be 16 to 256/],
    [['--control-token', 'has spaces in it, many of them'], /--control-token/],
    [['--allowed-origin', 'localhost:5173'], /--allowed-origin.*not an origin/],
    [['--allowed-origin', 'https://app.example/dashboard'], /--allowed-origin/],
    [['--allowed-origin', 'ftp://files.example'], /--allowed-origin/],
    [['--clock', 'real', '--now', '2024-05-31T00:00:00Z'], /--now sets the start of the virtual clock/],
    [['--prot', '0'], /unknown option '--prot'\. Did you mean --port\?/],
    [['--alowed-origin', 'http://localhost:1'], /Did you mean --allowed-origin\?/],
    [['--seeed', '1'], /Did you mean --seed\?/],
    [['--zzzzzz'], /^unknown option '--zzzzzz'\. Try 'analytics-sim --help'\.$/],
  ])('refuses serve %j with a clear message', (flags, message) => {
    const text = errorMessage(parseCommand(['serve', ...flags]));
    expect(text).toMatch(message);
    expect(text.length).toBeLessThan(300);
  });

  it('names the bad value in the message', () => {
    expect(errorMessage(parseCommand(['--port', 'abc']))).toContain('abc');
    expect(errorMessage(parseCommand(['--clock', 'fast']))).toContain('fast');
    expect(errorMessage(parseCommand(['--now', 'yesterday']))).toContain('yesterday');
  });

  it('refuses an unknown command and points at --help', () => {
    const text = errorMessage(parseCommand(['start']));
    expect(text).toContain('start');
    expect(text).toContain('--help');
  });

  it.each([['--verbose'], ['-x'], ['--port-number', '1']])('refuses the unknown flag %s', (...argv) => {
    const text = errorMessage(parseCommand(['serve', ...argv]));
    expect(text).toContain(argv[0] as string);
  });

  it('refuses an extra positional argument', () => {
    expect(errorMessage(parseCommand(['serve', 'now']))).toContain('now');
  });

  it('refuses a value given to a boolean flag', () => {
    expect(parseCommand(['--log=yes']).kind).toBe('error');
  });
});

describe('parseCommand: timeouts, proxy and control token', () => {
  it('reads the timeouts in seconds, decimals allowed, 0 for none', () => {
    expect(serveOptions(parseCommand(['--request-timeout', '2.5', '--write-timeout', '0']))).toMatchObject({ requestTimeout: 2.5, writeTimeout: 0 });
  });

  it('reads --ingest-delay in whole milliseconds, 0 when not given', () => {
    expect(serveOptions(parseCommand(['--ingest-delay', '5000']))).toMatchObject({ ingestDelay: 5000 });
    expect(serveOptions(parseCommand([])).ingestDelay).toBe(0);
  });

  it('reads --trust-proxy and --control-token', () => {
    const token = 'abcdefghijklmnop-_.~+/=';
    expect(serveOptions(parseCommand(['--trust-proxy', '--control-token', token]))).toMatchObject({ trustProxy: true, controlToken: token });
  });

  it('reads --har-entries in whole exchanges up to 100,000, 100 when not given', () => {
    expect(serveOptions(parseCommand(['--har-entries', '0'])).harEntries).toBe(0);
    expect(serveOptions(parseCommand(['--har-entries', '5000'])).harEntries).toBe(5000);
    expect(errorMessage(parseCommand(['--har-entries', '200000']))).toBe("--har-entries must be whole exchanges from 0 to 100000 (got '200000').");
  });

  it('reads --har-bodies in whole characters up to 65,536, 0 when not given', () => {
    expect(serveOptions(parseCommand(['--har-bodies', '4096'])).harBodies).toBe(4096);
    expect(errorMessage(parseCommand(['--har-bodies', '70000']))).toBe("--har-bodies must be whole characters from 0 to 65536 (got '70000').");
    expect(errorMessage(parseCommand(['--har-bodies', 'all']))).toBe("--har-bodies must be whole characters from 0 to 65536 (got 'all').");
  });

  it('reads --otlp-endpoint as an http(s) URL and refuses anything else, naming the form it takes', () => {
    expect(serveOptions(parseCommand(['--otlp-endpoint', 'http://127.0.0.1:4318'])).otlpEndpoint).toBe('http://127.0.0.1:4318');
    expect(errorMessage(parseCommand(['--otlp-endpoint', 'collector:4318']))).toBe("--otlp-endpoint must be an http(s) URL of an OTLP/HTTP collector, such as http://127.0.0.1:4318 (got 'collector:4318').");
  });

  it('hands the arguments after record to the record command, and its help to record --help', () => {
    expect(parseCommand(['record', '--target', 'http://127.0.0.1:8787', '--key', 'k', '--website', 'web_acme_store'])).toMatchObject({
      kind: 'record',
      options: { target: 'http://127.0.0.1:8787', key: 'k', websites: ['web_acme_store'], range: { preset: 'last_7d' }, timezone: 'UTC' },
    });
    expect(parseCommand(['record', '--help'])).toEqual({ kind: 'help', topic: 'record' });
    expect(errorMessage(parseCommand(['recrod']))).toContain('Did you mean record?');
  });

  it('takes the control token from ANALYTICS_SIM_CONTROL_TOKEN when the flag is not given', () => {
    const token = 'from-the-environment-123';
    expect(serveOptions(parseCommand([], { ANALYTICS_SIM_CONTROL_TOKEN: token })).controlToken).toBe(token);
    expect(serveOptions(parseCommand(['--control-token', 'from-the-flag-wins-0000'], { ANALYTICS_SIM_CONTROL_TOKEN: token })).controlToken).toBe('from-the-flag-wins-0000');
  });

  it('lists the new flags in --help', () => {
    for (const flag of ['--request-timeout', '--write-timeout', '--ingest-delay', '--trust-proxy', '--control-token', '--otlp-endpoint', '--har-bodies', '--har-entries']) expect(HELP).toContain(flag);
  });
});
