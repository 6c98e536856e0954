#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { startServer } from '../http/node-server.js';
import { createSimulator } from '../index.js';
import { HELP, parseCommand, type ServeOptions } from './args.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function serve(options: ServeOptions): Promise<void> {
  const simulator = createSimulator({
    seed: options.seed,
    clock: options.clock,
    startMs: options.startMs,
    realNow: Date.now,
  });
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
  process.stdout.write(
    [
      `analytics-sim listening on ${running.url}`,
      `  seed ${simulator.seed}, ${clock.mode} clock at ${clock.iso}`,
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
