import { describe, expect, it } from 'vitest';
import { createProfileStore } from '../../../src/sim/ingest/profile-store.js';
import { createSetupCheckStore, SETUP_CHECK_TTL_MS } from '../../../src/sim/ingest/setup-checks.js';
import { createIngestLedger, defineIngestKind } from '../../../src/sim/ingest/ingest-ledger.js';

const NOW = Date.UTC(2025, 5, 2, 12);

describe('the profile store', () => {
  it('refuses a new profile past maxProfiles and changes nothing, while the profiles it has still update', () => {
    const store = createProfileStore({ maxProfiles: 2 });
    expect(store.identify({ websiteId: 'w', profileId: 'a', anonymousId: null, traits: null }, NOW)).toEqual({ ok: true });
    expect(store.identify({ websiteId: 'w', profileId: 'b', anonymousId: null, traits: null }, NOW)).toEqual({ ok: true });
    const before = store.version(['w']);
    expect(store.identify({ websiteId: 'w', profileId: 'c', anonymousId: 'anon_c', traits: { plan: 'x' } }, NOW)).toEqual({ ok: false, reason: 'profiles' });
    expect(store.profile('w', 'c')).toBeUndefined();
    expect(store.profileOfAlias('w', 'anon_c')).toBeUndefined();
    expect(store.version(['w'])).toBe(before);
    expect(store.identify({ websiteId: 'w', profileId: 'a', anonymousId: null, traits: { plan: 'pro' } }, NOW + 1)).toEqual({ ok: true });
    expect(store.profile('w', 'a')).toMatchObject({ traits: { plan: 'pro' }, firstIdentifiedAt: NOW, lastIdentifiedAt: NOW + 1 });
    expect(store.size).toBe(2);
  });

  it('refuses a new alias past maxAliases and trait text past maxChars, keeping the profile as it was', () => {
    const store = createProfileStore({ maxAliases: 1, maxChars: 40 });
    expect(store.identify({ websiteId: 'w', profileId: 'a', anonymousId: 'x1', traits: null }, NOW).ok).toBe(true);
    expect(store.identify({ websiteId: 'w', profileId: 'a', anonymousId: 'x2', traits: null }, NOW)).toEqual({ ok: false, reason: 'aliases' });
    // Moving the alias it has to another profile is no new alias.
    expect(store.identify({ websiteId: 'w', profileId: 'b', anonymousId: 'x1', traits: null }, NOW).ok).toBe(true);
    expect(store.identify({ websiteId: 'w', profileId: 'b', anonymousId: null, traits: { note: 'n'.repeat(40) } }, NOW)).toEqual({ ok: false, reason: 'chars' });
    expect(store.profile('w', 'b')?.traits).toEqual({});
    expect(store.profileOfAlias('w', 'x1')).toBe('b');
  });

  it('keeps websites apart', () => {
    const store = createProfileStore();
    store.identify({ websiteId: 'w1', profileId: 'a', anonymousId: 'anon', traits: null }, NOW);
    expect(store.profileOfAlias('w2', 'anon')).toBeUndefined();
    expect(store.countOf('w2')).toBe(0);
    expect(store.version(['w2'])).toBe(0);
    expect(store.version(['w1', 'w2'])).toBe(1);
  });
});

describe('the setup-check store', () => {
  it('forgets a check after 120 s and, when full, drops expired checks first, then the oldest', () => {
    const store = createSetupCheckStore(2);
    store.record('w', 'old', NOW);
    store.record('w', 'mid', NOW + SETUP_CHECK_TTL_MS);
    store.record('w', 'new', NOW + SETUP_CHECK_TTL_MS);
    expect(store.size).toBe(2);
    expect(store.recorded('w', 'mid', NOW + SETUP_CHECK_TTL_MS)).toBe(true);
    store.record('w', 'newest', NOW + SETUP_CHECK_TTL_MS + 1);
    expect(store.size).toBe(2);
    expect(store.recorded('w', 'mid', NOW + SETUP_CHECK_TTL_MS + 1)).toBe(false);
    expect(store.recorded('w', 'newest', NOW + SETUP_CHECK_TTL_MS + 1)).toBe(true);
  });
});

describe('the ingest ledger', () => {
  const kind = defineIngestKind<{ timestamp: number; text: string }>('test-kind', (r) => r.text.length);

  it('appends to several owners at once, or to none when a bound would be passed', () => {
    const ledger = createIngestLedger({ maxRecords: 3 });
    const day = Math.floor(NOW / 86_400_000);
    expect(ledger.appendGroups(kind, new Map([['w1', [{ timestamp: NOW, text: 'a' }]], ['org:o', [{ timestamp: NOW, text: 'b' }]]]))).toEqual({ ok: true });
    expect(ledger.appendGroups(kind, new Map([['w1', [{ timestamp: NOW, text: 'c' }]], ['w2', [{ timestamp: NOW, text: 'd' }]]]))).toEqual({ ok: false, reason: 'records' });
    expect(ledger.size).toBe(2);
    expect(ledger.onDay(kind, 'w1', day)).toHaveLength(1);
    expect(ledger.holds(kind, 'w2')).toBe(false);
    expect(ledger.firstDay(kind, 'org:o')).toBe(day);
    expect(ledger.firstDay(kind, 'w2')).toBeNull();
  });
});
