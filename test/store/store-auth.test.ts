import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { runCli } from '../helpers/cli.js';
import { expectOneSimulator, openedStores, twoSimulatorsOn } from '../helpers/one-simulator.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

/**
 * A password-protected Redis (`redis://:PASSWORD@…`) and an ACL user (`redis://USER:PASSWORD@…`)
 * allowed only the keys of its prefix (`{prefix}:*`, the hash-tagged layout).
 */
let redis: RedisServer;
const PASSWORD = 'default-s3cret';
const ACL_USER = 'simulator';
const ACL_PASSWORD = 'acl-s3cret';
const ACL_PREFIX = `acl-${process.pid}`;

beforeAll(async () => {
  redis = await startRedis({ args: ['--requirepass', PASSWORD], password: PASSWORD });
  const admin = new Redis({ host: '127.0.0.1', port: redis.port, password: PASSWORD, lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await admin.call('ACL', 'SETUSER', ACL_USER, 'on', `>${ACL_PASSWORD}`, `~{${ACL_PREFIX}}:*`, '+@all', '-@dangerous', '+info');
  } finally {
    admin.disconnect();
  }
});
afterAll(async () => {
  await Promise.allSettled(openedStores.splice(0).map((s) => s.close()));
  await redis?.stop();
});

const CLEAN_ENV = { ANALYTICS_SIM_STORE: '', ANALYTICS_SIM_STORE_PREFIX: '', ANALYTICS_SIM_STORE_CA: '' };
const at = (credentials: string): string => `redis://${credentials}@127.0.0.1:${redis.port}/0`;

describe('a password-protected Redis store', () => {
  it('shares the quota, tracked events and one exact journal between two simulators given the password in the URL', async () => {
    await expectOneSimulator(await twoSimulatorsOn({ url: at(`:${PASSWORD}`) }, 'password'));
  });

  it('serves an ACL user allowed only the keys of its prefix ({prefix}:*)', async () => {
    await expectOneSimulator(await twoSimulatorsOn({ url: at(`${ACL_USER}:${ACL_PASSWORD}`) }, ACL_PREFIX, { exactPrefix: true }));
  });
});

describe('credentials the store refuses are named at start, in seconds', () => {
  it.concurrent('refuses a wrong password with exit 1, never repeating it', async () => {
    const began = Date.now();
    const result = await runCli(['serve', '--port', '0', '--store', at(':wrong-hunter2')], { env: CLEAN_ENV });
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `analytics-sim: the store at redis://127.0.0.1:${redis.port}/0 refused the user name or password: fix them in the store URL (redis://USER:PASSWORD@HOST:PORT) (WRONGPASS invalid username-password pair or user is disabled.)\n`,
    );
    expect(result.stderr).not.toContain('hunter2');
  });

  it.concurrent('says the ACL user may not use a prefix outside its keys', async () => {
    const result = await runCli(['serve', '--port', '0', '--store', at(`${ACL_USER}:${ACL_PASSWORD}`), '--store-prefix', 'not-its-own'], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^analytics-sim: the store at redis://127\\.0\\.0\\.1:${redis.port}/0 does not let this user run what the simulator needs: .*\\(NOPERM .*\\)\\n$`));
  });

  it.concurrent('says a password is needed when none is given', async () => {
    const result = await runCli(['serve', '--port', '0', '--store', `redis://127.0.0.1:${redis.port}`], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^analytics-sim: the store at redis://127\\.0\\.0\\.1:${redis.port}/0 needs a password: give it in the store URL .*\\(NOAUTH Authentication required\\.\\)\\n$`));
  });
});
