#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { startServer } from '../http/node-server.js';
import { BUILT_IN_SCENARIOS, createSimulator, scenarioSchema, type ScenarioInput } from '../index.js';
import { HELP, parseCommand, type ServeOptions } from './args.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Thrown for problems the user can fix; printed without a stack, exit status 2. */
class UsageError extends Error {}

/** Built-in names stay names; anything else is read as a JSON file of one scenario or a list. */
function loadScenarios(entries: readonly string[]): (string | ScenarioInput)[] {
  return entries.flatMap((entry): (string | ScenarioInput)[] => {
    if (BUILT_IN_SCENARIOS.some((s) => s.name === entry)) return [entry];
    if (!/\.json$/i.test(entry) && !existsSync(entry)) return [entry];
    let text: string;
    try {
      text = readFileSync(entry, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read scenario file ${entry}: ${(error as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`scenario file ${entry} is not valid JSON: ${(error as Error).message}`);
    }
    const list: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
    return list.map((candidate, i) => {
      const result = scenarioSchema.safeParse(candidate);
      if (result.success) return candidate as ScenarioInput;
      const where = Array.isArray(parsed) ? `${entry} [${i}]` : entry;
      const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
      throw new UsageError(`invalid scenario in ${where}: ${problems.join('; ')}`);
    });
  });
}

async function serve(options: ServeOptions): Promise<void> {
  let simulator;
  try {
    simulator = createSimulator({
      seed: options.seed,
      clock: options.clock,
      startMs: options.startMs,
      realNow: Date.now,
      scenarios: loadScenarios(options.scenarios),
      guardControlHost: /^(localhost|127\.[\d.]+|::1)$/.test(options.host),
      limits: options.limits,
      strict: options.strict,
      ...(options.allowedOrigins.length > 0 ? { allowedOrigins: options.allowedOrigins } : {}),
    });
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
  const running = await startServer(simulator, {
    port: options.port,
    host: options.host,
    now: () => performance.now(),
    ...(options.log
      ? {
          log: (e) =>
            process.stdout.write(`${e.method} ${e.path} ${e.status} ${e.durationMs.toFixed(1)}ms ${e.requestId}\n`),
        }
      : {}),
  });
  const fixtures = simulator.fixtures() as { apiKeys: { id: string; secret: string | null }[] };
  const key = fixtures.apiKeys.find((k) => k.id === 'key_acme_read')?.secret ?? '<key>';
  const clock = simulator.clock.snapshot();
  const scenarioNames = simulator.scenarios.list().map((s) => s.name);
  process.stdout.write(
    [
      `analytics-sim listening on ${running.url}`,
      `  seed ${simulator.seed}, ${clock.mode} clock at ${clock.iso}`,
      ...(scenarioNames.length > 0 ? [`  scenarios: ${scenarioNames.join(', ')}`] : []),
      ...(options.limits === 'off' ? ['  limits: off (no per-endpoint limits, quotas or concurrency cap)'] : []),
      ...(options.strict ? ['  strict: what the service would ignore or reinterpret is refused with 400'] : []),
      ...(options.allowedOrigins.length > 0 ? [`  allowed origins (CORS): ${options.allowedOrigins.join(', ')} and the simulator's own`] : []),
      `  fixtures and API keys: curl -s ${running.url}/__sim/fixtures`,
      `  try: curl -s -H "x-api-key: ${key}" ${running.url}/v1/query/websites`,
      '',
    ].join('\n'),
  );
  const stop = (): void => {
    running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(): Promise<void> {
  const command = parseCommand(process.argv.slice(2));
  switch (command.kind) {
    case 'help':
      process.stdout.write(HELP);
      return;
    case 'version':
      process.stdout.write(`${version()}\n`);
      return;
    case 'error':
      process.stderr.write(`analytics-sim: ${command.message}\n`);
      process.exitCode = 2;
      return;
    case 'serve':
      await serve(command.options);
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`analytics-sim: ${error.message}\n`);
    process.exit(2);
  }
  const err = error as NodeJS.ErrnoException;
  const message =
    err.code === 'EADDRINUSE'
      ? `the port is already in use (${err.message}). Pick another with --port, or --port 0 for a free one.`
      : err.code === 'EACCES'
        ? `not allowed to listen there (${err.message}).`
        : err.message;
  process.stderr.write(`analytics-sim: ${message}\n`);
  process.exit(1);
});
