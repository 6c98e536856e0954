import { describe, expect, it } from 'vitest';
import { parseStoreTarget, STORE_FORMS } from '../../src/store/redis-store.js';

describe('reading every form of a store', () => {
  it('reads redis:// with an ACL user and password, keeping them out of the location', () => {
    const target = parseStoreTarget('redis://sim:p%40ss@127.0.0.1:6390/3');
    expect(target).toMatchObject({ kind: 'redis', host: '127.0.0.1', port: 6390, db: 3, tls: false, username: 'sim', password: 'p@ss', location: 'redis://127.0.0.1:6390/3' });
    expect((target as { location: string }).location).not.toContain('p@ss');
  });

  it('reads rediss:// as TLS', () => {
    expect(parseStoreTarget('rediss://cache.example.com')).toMatchObject({ kind: 'redis', tls: true, port: 6379, location: 'rediss://cache.example.com:6379/0' });
  });

  it('reads sentinel:// with its Sentinels (port 26379 by default), master name, database and the master password', () => {
    expect(parseStoreTarget('sentinel://:pw@10.0.0.1,10.0.0.2:26380,[::1]:26381/mymaster/2')).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: '10.0.0.2', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      name: 'mymaster',
      db: 2,
      username: undefined,
      password: 'pw',
      sentinelUsername: undefined,
      sentinelPassword: undefined,
      location: 'sentinel://10.0.0.1:26379,10.0.0.2:26380,[::1]:26381/mymaster/2',
    });
  });

  it('reads a Sentinel object with the Sentinels’ own password', () => {
    expect(parseStoreTarget({ sentinels: ['s1:26379', 's2'], name: 'm', sentinelPassword: 'x', password: 'y' })).toMatchObject({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      sentinelPassword: 'x',
      password: 'y',
      location: 'sentinel://s1:26379,s2:26379/m/0',
    });
  });

  it('reads redis-cluster:// with its seed nodes (port 6379 by default)', () => {
    expect(parseStoreTarget('redis-cluster://user:pw@n1:7000,n2')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 6379 },
      ],
      username: 'user',
      password: 'pw',
      location: 'redis-cluster://n1:7000,n2:6379',
    });
  });

  it.each([
    ['sentinel://h:1', /names no master/],
    ['sentinel://h:1/m/x', /the database in .* must be a number/],
    ['sentinel://h:1/m/0/extra', /the database in .* must be a number/],
    ['sentinel:///m', /names no host/],
    ['redis-cluster://a:1,,b:2', /'' in .* is not HOST:PORT/],
    ['redis-cluster://a:0', /'a:0' in .* is not HOST:PORT/],
    ['redis-cluster://a:1/0', /a cluster has only database 0/],
    ['redis-cluster://a:1?tls=1', /takes no query/],
    ['redis-cluster://user:s3cret@a b', /'a b' in redis-cluster:\/\/…@a b is not HOST:PORT/],
    ['mongodb://x', /^unsupported store mongodb:\/\/x/],
  ])('refuses %s in one line naming the problem and every form, never a password', (url, message) => {
    const parsed = parseStoreTarget(url);
    expect(parsed).toEqual({ error: expect.stringMatching(message) });
    const { error } = parsed as { error: string };
    expect(error).not.toContain('\n');
    expect(error).not.toContain('s3cret');
    expect(error.endsWith(`: use ${STORE_FORMS}`)).toBe(true);
  });

  it('refuses a Sentinel object whose Sentinel is not HOST:PORT', () => {
    expect(parseStoreTarget({ sentinels: ['h:99999'], name: 'm' })).toEqual({ error: "sentinels: 'h:99999' is not HOST:PORT" });
  });
});
