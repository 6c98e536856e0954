import type { ScenarioInput } from '../../contract/scenario.js';

/** Every key's rolling quota shrinks for a while, as after a plan downgrade. */
export const quotaCrunch: ScenarioInput = {
  name: 'quota-crunch',
  description:
    'For 120 s from the start, every API key (with or without its own quota) gets a rolling quota of 20 requests per 60 s; the 21st gets 429 "API key rate limit exceeded".',
  steps: [{ name: 'small quota', duration: '120s', effect: { type: 'quota', limit: 20, window: '60s' } }],
};
