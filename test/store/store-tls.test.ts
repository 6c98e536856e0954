import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { startCli, runCli, type CliProcess } from '../helpers/cli.js';
import { expectOneSimulator, openedStores, twoSimulatorsOn } from '../helpers/one-simulator.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { makeCertificates, type Certificates } from '../helpers/redis-topologies.js';
import { expectOneQuotaAcross, listeningUrls } from '../helpers/shared-serve.js';

/**
 * A Redis serving TLS only (`--tls-port`), with a certificate signed by a CA made for this file
 * (`rediss://` and `--store-ca`), beside a plain one for the mismatches.
 */
let certificates: Certificates;
let tls: RedisServer;
let plain: RedisServer;
const running: CliProcess[] = [];

beforeAll(async () => {
  certificates = await makeCertificates();
  [tls, plain] = await Promise.all([startRedis({ tls: certificates }), startRedis()]);
}, 60_000);
afterAll(async () => {
  for (const cli of running.splice(0)) cli.kill();
  await Promise.allSettled(openedStores.splice(0).map((s) => s.close()));
  await Promise.allSettled([tls?.stop(), plain?.stop()]);
});

const CLEAN_ENV = { ANALYTICS_SIM_STORE: '', ANALYTICS_SIM_STORE_PREFIX: '', ANALYTICS_SIM_STORE_CA: '' };

describe('a Redis store over TLS', () => {
  it('shares the quota, tracked events and one exact journal between two simulators on rediss:// trusting the CA', async () => {
    await expectOneSimulator(await twoSimulatorsOn({ url: tls.url, tls: { ca: readFileSync(certificates.ca) } }, 'tls'));
  });

  it('serves one simulator from two serve processes given rediss:// and --store-ca (and ANALYTICS_SIM_STORE_CA)', async () => {
    const prefix = `tls-serve-${process.pid}`;
    const processes = [
      startCli(['serve', '--store', tls.url, '--store-ca', certificates.ca, '--store-prefix', prefix, '--port', '0', '--clock', 'virtual'], { guardMs: 60_000, env: CLEAN_ENV }),
      startCli(['serve', '--store', tls.url, '--store-prefix', prefix, '--port', '0', '--clock', 'virtual'], { guardMs: 60_000, env: { ...CLEAN_ENV, ANALYTICS_SIM_STORE_CA: certificates.ca } }),
    ];
    running.push(...processes);
    const urls = await listeningUrls(processes);
    await expectOneQuotaAcross(urls);
  }, 60_000);
});

describe('a TLS mismatch is refused at start, naming it, in seconds', () => {
  it.concurrent('says the certificate is not trusted when the CA is not given', async () => {
    const result = await runCli(['serve', '--port', '0', '--store', tls.url], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `analytics-sim: the store at ${tls.url} presented a TLS certificate this process does not trust (SELF_SIGNED_CERT_IN_CHAIN): give the CA that signed it with --store-ca FILE (the tls option of createRedisStore) (self-signed certificate in certificate chain)\n`,
    );
  });

  it.concurrent('says the certificate is not trusted when --store-ca names another CA', async () => {
    const result = await runCli(['serve', '--port', '0', '--store', tls.url, '--store-ca', certificates.otherCa], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/presented a TLS certificate this process does not trust \(\w+\): give the CA that signed it with --store-ca FILE/);
  });

  it.concurrent('says a plain redis:// to a TLS port was closed, and to use rediss://', async () => {
    const url = `redis://127.0.0.1:${tls.port}/0`;
    const result = await runCli(['serve', '--port', '0', '--store', url], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^analytics-sim: the store at redis://127\\.0\\.0\\.1:${tls.port}/0 closed the connection before answering, as a TLS port does to plain Redis: if it serves TLS, use rediss:// \\(\\w+ (ECONNRESET|EPIPE)\\)\\n$`));
  });

  it.concurrent('says rediss:// to a plain port completed no TLS handshake, and to use redis://, within a few seconds', async () => {
    const began = Date.now();
    const result = await runCli(['serve', '--port', '0', '--store', `rediss://127.0.0.1:${plain.port}/0`], { env: CLEAN_ENV });
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/completed no TLS handshake within 2000 ms: a port serving plain Redis never does; use redis:\/\/ there/);
  });

  it.concurrent('refuses a --store-ca file that cannot be read, with exit 2', async () => {
    const result = await runCli(['serve', '--port', '0', '--store', tls.url, '--store-ca', '/nonexistent/ca.pem'], { env: CLEAN_ENV });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('analytics-sim: --store-ca /nonexistent/ca.pem cannot be read (ENOENT).\n');
  });

  it.concurrent('refuses a --store-ca file that holds no certificate (a private key), with exit 2', async () => {
    const result = await runCli(['serve', '--port', '0', '--store', tls.url, '--store-ca', certificates.key], { env: CLEAN_ENV });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`analytics-sim: --store-ca ${certificates.key} holds no PEM certificate (-----BEGIN CERTIFICATE-----).\n`);
  });

  it.concurrent('refuses --store-ca with a store that is not rediss://', async () => {
    const result = await runCli(['serve', '--port', '0', '--store', plain.url, '--store-ca', certificates.ca], { env: CLEAN_ENV });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`analytics-sim: --store-ca is the CA of a rediss:// store, and ${plain.url} is not one: use rediss://, or drop it.\n`);
  });
});
