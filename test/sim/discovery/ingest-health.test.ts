import { describe, expect, it } from 'vitest';
import { call, freshSimulator } from '../../helpers/sim.js';

describe('GET /health/status, the ingestion service’s dependency health', () => {
  it('answers every dependency ok with its latency', async () => {
    const answer = await call(freshSimulator(), 'GET', '/health/status');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      status: 'ok',
      services: {
        clickhouse: { status: 'ok', latency_ms: 0 },
        redis: { status: 'ok', latency_ms: 0 },
        redpanda: { status: 'ok', latency_ms: 0 },
      },
    });
  });
});
