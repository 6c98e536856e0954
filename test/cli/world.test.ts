import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommand, type ServeOptions } from '../../src/cli/args.js';
import { applyConfig } from '../../src/cli/config.js';
import { runCli, startCli, type CliProcess } from '../helpers/cli.js';
import { fetchAnswer } from '../helpers/wire.js';

const running: CliProcess[] = [];
const folders: string[] = [];

afterEach(async () => {
  for (const cli of running.splice(0)) {
    cli.kill();
    await cli.exited;
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

async function serve(args: readonly string[]): Promise<string> {
  const cli = startCli(['serve', '--port', '0', ...args], { guardMs: 30_000 });
  running.push(cli);
  const [, url] = await cli.waitForStdout(LISTENING);
  return url as string;
}

interface Example {
  world: { websites: { id: string; domain: string; pages: { path: string }[]; events: { name: string }[] }[]; keys: { secret: string }[] };
}

describe('analytics-sim serve with a world', () => {
  it('serves examples/my-site.json: its website id and domain, and top_pages lists its pages', async () => {
    const example = JSON.parse(readFileSync('examples/my-site.json', 'utf8')) as Example;
    const site = example.world.websites[0] as Example['world']['websites'][number];
    const url = await serve(['--config', 'examples/my-site.json']);
    const fixtures = await fetchAnswer(`${url}/__sim/fixtures`);
    expect(fixtures.json.websites).toMatchObject([{ id: site.id, domain: site.domain }]);
    const answer = await fetchAnswer(`${url}/v1/query?website_id=${site.id}`, {
      method: 'POST',
      headers: { 'x-api-key': example.world.keys[0]?.secret as string, 'content-type': 'application/json' },
      body: JSON.stringify({ parameters: ['top_pages', 'custom_events'], preset: 'last_7d', limit: 100 }),
    });
    expect(answer.status).toBe(200);
    const [pages, events] = answer.json.data as { data: { path?: string; name?: string }[] }[];
    expect(new Set(pages?.data.map((row) => row.path))).toEqual(new Set(site.pages.map((p) => p.path)));
    expect(new Set(events?.data.map((row) => row.name))).toEqual(new Set(site.events.map((e) => e.name)));
  });

  it('starts --world large and answers a query on its last website with a generated key', async () => {
    const url = await serve(['--world', 'large', '--clock', 'virtual']);
    const first = await fetchAnswer(`${url}/__sim/fixtures`);
    expect(first.json.totals).toMatchObject({ organizations: 1_000, websites: 10_000, apiKeys: 2_000, users: 2_000 });
    expect(first.json.websites).toHaveLength(1_000);
    // Every page of 1,000: the websites and keys together, each listed once.
    const websites: { id: string; organizationId: string }[] = [];
    const keys: { id: string; secret: string }[] = [];
    for (let page = 1; page <= 10; page++) {
      const listing = (await fetchAnswer(`${url}/__sim/fixtures?page=${page}&limit=1000`)).json;
      websites.push(...(listing.websites as typeof websites));
      keys.push(...(listing.apiKeys as typeof keys));
    }
    expect(new Set(websites.map((w) => w.id)).size).toBe(10_000);
    expect(new Set(keys.map((k) => k.id)).size).toBe(2_000);
    const last = websites.find((w) => w.id === 'web_g1000_010');
    const key = keys.find((k) => k.id === 'key_g1000_1');
    expect(last?.organizationId).toBe('org_g1000');
    const answer = await fetchAnswer(`${url}/v1/query?website_id=web_g1000_010`, {
      method: 'POST',
      headers: { 'x-api-key': key?.secret as string, 'content-type': 'application/json' },
      body: JSON.stringify({ parameters: ['summary_metrics'], preset: 'last_7d' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject([{ parameter: 'summary_metrics', success: true }]);
  });

  it('refuses a world section with mistakes at start, exit 2, every problem listed with its path', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'analytics-sim-world-'));
    folders.push(folder);
    const file = join(folder, 'world.json');
    writeFileSync(
      file,
      JSON.stringify({
        world: {
          organizations: [{ id: 'org_a' }, { id: 'org_a' }],
          websites: [{ id: 'web_a', domain: 'Not A Domain', timezone: 'Mars/Olympus', colour: 'blue' }],
        },
      }),
    );
    const result = await runCli(['serve', '--port', '0', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('world.organizations.1.id: org_a is already the id of organizations[0]');
    expect(result.stderr).toContain('world.websites.0.domain: a lower-case host name');
    expect(result.stderr).toContain('world.websites.0.timezone: an IANA time zone');
    expect(result.stderr).toContain("world.websites.0: Unrecognized key: \"colour\"");
    expect(result.stdout).not.toContain('listening on');
  });

  it('puts --world and --locale over the file\'s world section, keeping what it declares', () => {
    const command = parseCommand(['serve', '--world', 'large', '--locale', 'fr']);
    if (command.kind !== 'serve') throw new Error(command.kind);
    const file = { organizations: [{ id: 'org_mine' }], generate: { organizations: 3 }, locale: 'de' as const };
    const options: ServeOptions = applyConfig(command.options, command.given, { path: 'world.json', config: { world: file } });
    expect(options.world).toEqual({ organizations: [{ id: 'org_mine' }], preset: 'large', locale: 'fr' });
    const plain = parseCommand(['serve']);
    if (plain.kind !== 'serve') throw new Error(plain.kind);
    expect(applyConfig(plain.options, plain.given, { path: 'world.json', config: { world: file } }).world).toEqual(file);
    expect(applyConfig(plain.options, plain.given, { path: 'none.json', config: {} }).world).toBeUndefined();
  });

  it('reads --world and --locale, and names the choices of a wrong one', () => {
    const command = parseCommand(['serve', '--world', 'medium', '--locale', 'de']);
    expect(command).toMatchObject({ kind: 'serve', options: { world: { preset: 'medium', locale: 'de' } } });
    expect(parseCommand(['serve', '--world', 'huge'])).toEqual({ kind: 'error', message: "--world must be small, medium or large (got 'huge')." });
    expect(parseCommand(['serve', '--locale', 'xx'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--locale must be one of en, en_GB, de') });
  });
});
