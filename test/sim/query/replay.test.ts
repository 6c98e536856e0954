import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/index.js';
import { recordingJsonSchema, type RecordingInput } from '../../../src/contract/recording.js';
import { RecordingRefused } from '../../../src/sim/query/engine/replay-index.js';
import { call, secretOf } from '../../helpers/sim.js';

/*
 * Replay through the public surface: a recording made by hand from one simulator's answers is
 * served by another of a different seed. The recorder itself (analytics-sim record) is tested
 * in test/cli/record.test.ts.
 */

const RANGE = { startDate: '2025-05-26', endDate: '2025-06-01' };

/** One query on web_acme_store over RANGE, as a client sends it. */
async function ask(sim: ReturnType<typeof createSimulator>, parameters: string[], extra: Record<string, unknown> = {}) {
  return call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, key: secretOf(sim, 'key_acme_read'), body: { parameters, ...RANGE, ...extra } });
}

/** The rows of each parameter of an answer, as JSON text. */
function rowsOf(answer: { json: { data: { parameter: string; data: unknown }[] } }): Record<string, string> {
  return Object.fromEntries(answer.json.data.map((item) => [item.parameter, JSON.stringify(item.data)]));
}

/** A recording of two parameters answered by a simulator of seed `recorded`. */
async function recordingFrom(seed: string): Promise<{ recording: RecordingInput; rows: Record<string, string> }> {
  const source = createSimulator({ seed });
  const answer = await ask(source, ['summary_metrics', 'top_pages']);
  expect(answer.status).toBe(200);
  const rows = rowsOf(answer);
  const recording: RecordingInput = {
    version: 1,
    target: 'http://127.0.0.1:8787',
    recordedAt: '2025-06-02T12:00:00.000Z',
    complete: true,
    entries: (answer.json.data as { parameter: string; data: Record<string, unknown>[] }[]).map((item) => ({
      type: item.parameter,
      scope: { website_id: 'web_acme_store' },
      ...RANGE,
      rows: item.data,
    })),
  };
  return { recording, rows };
}

describe('createSimulator({ replay })', () => {
  it('answers a recorded parameter with the recorded rows and says so in a Warning, and the others from its own world', async () => {
    const { recording, rows } = await recordingFrom('recorded-seed');
    const replaying = createSimulator({ seed: 'other-seed', replay: recording });
    const own = createSimulator({ seed: 'other-seed' });
    const answer = await ask(replaying, ['summary_metrics', 'top_pages', 'country']);
    expect(answer.status).toBe(200);
    const replayed = rowsOf(answer);
    expect(replayed.summary_metrics).toBe(rows.summary_metrics);
    expect(replayed.top_pages).toBe(rows.top_pages);
    // The seeds differ, so the recorded rows are not the replaying world's own.
    expect(rowsOf(await ask(own, ['summary_metrics'])).summary_metrics).not.toBe(rows.summary_metrics);
    expect(replayed.country).toBe(rowsOf(await ask(own, ['country'])).country);
    const warning = answer.headers.Warning ?? '';
    expect(warning).toContain('summary_metrics: rows from the recording (entry 0 of http://127.0.0.1:8787 at 2025-06-02T12:00:00.000Z)');
    expect(warning).toContain('top_pages: rows from the recording (entry 1');
    expect(warning).not.toContain('country');
  });

  it('answers from its own world a parameter that differs from the recorded one in range, filters, paging or scope', async () => {
    const { recording, rows } = await recordingFrom('recorded-seed');
    const replaying = createSimulator({ seed: 'other-seed', replay: recording });
    const differing = [
      await ask(replaying, ['summary_metrics'], { endDate: '2025-05-31' }),
      await ask(replaying, ['summary_metrics'], { filters: [{ field: 'country', op: 'eq', value: 'US' }] }),
      await ask(replaying, ['summary_metrics'], { limit: 5 }),
      await ask(replaying, ['summary_metrics'], { granularity: 'hourly' }),
    ];
    for (const answer of differing) {
      expect(answer.status).toBe(200);
      expect(rowsOf(answer).summary_metrics).not.toBe(rows.summary_metrics);
      expect(answer.headers.Warning ?? '').not.toContain('from the recording');
    }
    const onOrganization = await call(replaying, 'POST', '/v1/query', { query: { organization_id: 'org_acme' }, key: secretOf(replaying, 'key_acme_read'), body: { parameters: ['summary_metrics'], ...RANGE } });
    expect(onOrganization.status).toBe(200);
    expect(onOrganization.headers.Warning ?? '').not.toContain('from the recording');
  });

  it('keeps auth, limits and the journal: a replayed parameter still needs the key, and its request is journaled', async () => {
    const { recording } = await recordingFrom('recorded-seed');
    const replaying = createSimulator({ seed: 'other-seed', replay: recording });
    const anonymous = await call(replaying, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, body: { parameters: ['summary_metrics'], ...RANGE } });
    expect(anonymous.status).toBe(401);
    const answer = await ask(replaying, ['summary_metrics']);
    expect(answer.status).toBe(200);
    const journal = await call(replaying, 'GET', '/__sim/journal');
    const last = journal.json.entries.at(-1);
    expect(last.outcome).toBe('admitted');
    expect(last.warnings.join(' ')).toContain('rows from the recording');
  });

  it('keeps the recording across a reset', async () => {
    const { recording, rows } = await recordingFrom('recorded-seed');
    const replaying = createSimulator({ seed: 'other-seed', replay: recording });
    await replaying.reset();
    expect(rowsOf(await ask(replaying, ['summary_metrics'])).summary_metrics).toBe(rows.summary_metrics);
  });
});

describe('a recording the simulator refuses at start', () => {
  const base = (): RecordingInput => ({
    version: 1,
    target: 'http://127.0.0.1:8787',
    recordedAt: '2025-06-02T12:00:00.000Z',
    complete: true,
    entries: [
      { type: 'summary_metrics', scope: { website_id: 'web_acme_store' }, ...RANGE, rows: [{ pageviews: 1 }] },
      { type: 'top_pages', scope: { website_id: 'web_acme_store' }, ...RANGE, rows: [] },
    ],
  });
  const refusal = (replay: unknown): string => {
    try {
      createSimulator({ replay });
    } catch (error) {
      expect(error).toBeInstanceOf(RecordingRefused);
      return (error as Error).message;
    }
    throw new Error('the recording was accepted');
  };

  it('refuses an unknown version and says which one it reads', () => {
    expect(refusal({ ...base(), version: 2 })).toMatch(/unknown recording version 2: this analytics-sim reads version 1/);
  });

  it('refuses a malformed entry, naming its index and path', () => {
    const recording = base();
    (recording.entries[1] as { scope: unknown }).scope = { website_id: 'web_acme_store', link_id: 'link_acme_launch' };
    expect(refusal(recording)).toMatch(/entry 1 \(entries\[1\]\.scope\): names exactly one of website_id/);
    const noRows = base();
    delete (noRows.entries[0] as { rows?: unknown }).rows;
    expect(refusal(noRows)).toMatch(/entry 0 \(entries\[0\]\.rows\)/);
  });

  it('refuses an unknown type, an impossible date and two entries of the same parameter, naming each entry', () => {
    const typo = base();
    (typo.entries[0] as { type: string }).type = 'summry_metrics';
    expect(refusal(typo)).toMatch(/entry 0 \(entries\[0\]\.type\): unknown query type summry_metrics; did you mean summary_metrics\?/);
    const impossible = base();
    (impossible.entries[1] as { endDate: string }).endDate = '2025-02-30';
    expect(refusal(impossible)).toMatch(/entry 1 \(entries\[1\]\.endDate\): 2025-02-30 is not a real date/);
    const twice = base();
    twice.entries.push({ ...twice.entries[0], rows: [] } as RecordingInput['entries'][number]);
    expect(refusal(twice)).toMatch(/entry 2 \(entries\[2\]\): asks the same parameter as entry 0/);
  });

  it('refuses a secret anywhere in it: a key, a credential field, a Bearer value', () => {
    const key = base();
    (key.entries[0] as { rows: unknown[] }).rows = [{ path: `/x?k=dbdy_${'a'.repeat(48)}` }];
    expect(refusal(key)).toMatch(/entry 0 \(entries\[0\]\.rows\[0\]\.path\): holds a value that starts like a secret \(dbdy_…\)/);
    const header = { ...base(), headers: { 'x-api-key': 'anything' } };
    expect(refusal(header)).toMatch(/headers\.x-api-key: is a credential field/);
    const bearer = base();
    (bearer.entries[1] as { rows: unknown[] }).rows = [{ note: 'Bearer abc.def' }];
    expect(refusal(bearer)).toMatch(/entry 1 \(entries\[1\]\.rows\[0\]\.note\): holds a credential/);
  });

  it('refuses more entries than a recording may hold', () => {
    const recording = base();
    recording.entries = Array.from({ length: 10_001 }, () => recording.entries[0] as RecordingInput['entries'][number]);
    expect(refusal(recording)).toMatch(/entries: At most 10000 entries are read from one recording; got 10001/);
  });
});

describe('docs/recording.schema.json', () => {
  it('is the JSON Schema npm run docs:config writes from recordingSchema', () => {
    const written = readFileSync(new URL('../../../docs/recording.schema.json', import.meta.url), 'utf8');
    expect(written).toBe(`${JSON.stringify(recordingJsonSchema(), null, 2)}\n`);
  });
});
