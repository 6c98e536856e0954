import { describe, expect, it } from 'vitest';
import { createRedisStore, parseStoreUrl } from '../../src/store/redis-store.js';

describe('reading a --store URL', () => {
  it('reads host, port and database of a redis:// URL', () => {
    expect(parseStoreUrl('redis://127.0.0.1:6390/2')).toEqual({ host: '127.0.0.1', port: 6390, db: 2, tls: false, location: 'redis://127.0.0.1:6390/2' });
  });

  it('defaults to port 6379 and database 0', () => {
    expect(parseStoreUrl('redis://cache.internal')).toEqual({ host: 'cache.internal', port: 6379, db: 0, tls: false, location: 'redis://cache.internal:6379/0' });
    expect(parseStoreUrl('redis://cache.internal:6380/')).toMatchObject({ port: 6380, db: 0 });
  });

  it('takes rediss:// as Redis over TLS', () => {
    expect(parseStoreUrl('rediss://cache.example.com:6380/1')).toEqual({
      host: 'cache.example.com',
      port: 6380,
      db: 1,
      tls: true,
      location: 'rediss://cache.example.com:6380/1',
    });
  });

  it('reads an IPv6 address, bare for the socket and bracketed in the location', () => {
    expect(parseStoreUrl('redis://[::1]:6390/0')).toMatchObject({ host: '::1', location: 'redis://[::1]:6390/0' });
  });

  it('never shows credentials in the location', () => {
    const parsed = parseStoreUrl('redis://admin:s3cret@127.0.0.1:6390/0');
    expect(parsed).toEqual({ host: '127.0.0.1', port: 6390, db: 0, tls: false, location: 'redis://127.0.0.1:6390/0' });
    expect(JSON.stringify(parsed)).not.toContain('s3cret');
  });

  it.each([
    ['ftp://x', /^unsupported store ftp:\/\/x: use redis:\/\/HOST:PORT\[\/DB\] or rediss:\/\/HOST:PORT\[\/DB\]$/],
    ['memory', /is not a URL/],
    ['redis://127.0.0.1:6379/zero', /database .* must be a number/],
    ['redis://127.0.0.1:6379/0?family=6', /takes no query/],
    ['redis://127.0.0.1:99999', /is not a URL/],
    ['http://user:s3cret@127.0.0.1', /^unsupported store http:\/\/…@127\.0\.0\.1/],
  ])('refuses %s with one line naming the accepted forms', (url, message) => {
    const parsed = parseStoreUrl(url);
    expect(parsed).toEqual({ error: expect.stringMatching(message) });
    const { error } = parsed as { error: string };
    expect(error).not.toContain('\n');
    expect(error).not.toContain('s3cret');
    expect(error).toContain('redis://HOST:PORT[/DB] or rediss://HOST:PORT[/DB]');
  });

  it('is what createRedisStore throws for a URL it cannot use', () => {
    expect(() => createRedisStore({ url: 'ftp://x' })).toThrow('unsupported store ftp://x');
  });
});
