import { describe, expect, it } from 'vitest';
import { engagementSpan, postSpans, spanSimulator, todayRows } from './span-support.js';

const five = (fields: (i: number) => Record<string, unknown>) => Array.from({ length: 5 }, (_, i) => engagementSpan(fields(i)));

describe('engagement spans posted to POST /engagement in the engagement query types', () => {
  it('answers with the inferred {status, type: engagement, count}', async () => {
    const answer = await postSpans(spanSimulator(), '/engagement', [engagementSpan()]);
    expect(answer.json).toEqual({ status: 'success', type: 'engagement', count: 1 });
  });

  it('gives a page with five posted spans an engagement_quality_by_page row of their averages', async () => {
    const sim = spanSimulator();
    await postSpans(sim, '/engagement', five((i) => ({ path: '/spans/quality/', anonymousId: `anon_q_${i}`, timeOnPage: 10 * (i + 1), activeTime: 5 * (i + 1), maxScrollDepth: 20 * (i + 1), interactionCount: i, timeToFirstInteraction: i === 0 ? 0 : 1000 * i })));
    const row = (await todayRows(sim, 'engagement_quality_by_page')).find((r) => r.name === '/spans/quality');
    expect(row).toEqual({
      name: '/spans/quality',
      page_views: 5,
      avg_time_on_page: 30,
      avg_active_time: 15,
      attention_ratio: 50,
      avg_scroll_depth: 60,
      avg_interactions: 2,
      median_time_to_first_interaction: 2500,
    });
  });

  it('leaves a page with fewer than five spans out, as the builders’ HAVING page_views >= 5', async () => {
    const sim = spanSimulator();
    await postSpans(sim, '/engagement', five(() => ({ path: '/spans/rare' })).slice(0, 4));
    expect((await todayRows(sim, 'engagement_quality_by_page')).some((r) => r.name === '/spans/rare')).toBe(false);
  });

  it('adds a posted span to a generated page’s views in engagement_quality_by_page', async () => {
    const sim = spanSimulator();
    const [busiest] = await todayRows(sim, 'engagement_quality_by_page');
    await postSpans(sim, '/engagement', [engagementSpan({ path: busiest?.name })]);
    const after = (await todayRows(sim, 'engagement_quality_by_page')).find((r) => r.name === busiest?.name);
    expect(after?.page_views).toBe((busiest?.page_views as number) + 1);
  });

  it('rates rage and dead clicks and errors per page in frustration_by_page, with the controls involved', async () => {
    const sim = spanSimulator();
    await postSpans(
      sim,
      '/engagement',
      five((i) => ({
        path: '/spans/frustrating',
        anonymousId: `anon_f_${i % 2}`,
        rageClickCount: i < 2 ? 3 : 0,
        rageClickTarget: i < 2 ? 'button:buy' : '',
        deadClickCount: i === 4 ? 1 : 0,
        deadClickTarget: i === 4 ? 'img.hero' : '',
        errorCount: i === 0 ? 1 : 0,
      })),
    );
    const row = (await todayRows(sim, 'frustration_by_page')).find((r) => r.name === '/spans/frustrating');
    expect(row).toEqual({
      name: '/spans/frustrating',
      page_views: 5,
      visitors: 2,
      rage_click_rate: 40,
      dead_click_rate: 20,
      error_rate: 20,
      top_dead_click_target: 'img.hero',
      top_rage_click_target: 'button:buy',
    });
  });

  it('derives form abandonment from fields focused without a submit in form_abandonment_by_page', async () => {
    const sim = spanSimulator();
    await postSpans(
      sim,
      '/engagement',
      Array.from({ length: 6 }, (_, i) =>
        engagementSpan({ path: '/spans/signup', formFieldCount: i < 5 ? 2 : 0, formSubmitCount: i < 2 ? 1 : 0, lastFormField: i < 5 ? 'email' : '' }),
      ),
    );
    const row = (await todayRows(sim, 'form_abandonment_by_page')).find((r) => r.name === '/spans/signup');
    expect(row).toEqual({ name: '/spans/signup', form_starts: 5, form_submits: 2, abandonment_rate: 60, top_abandoned_field: 'email' });
  });

  it('cuts click targets and form field names to 64 characters', async () => {
    const sim = spanSimulator();
    await postSpans(sim, '/engagement', five(() => ({ path: '/spans/long', rageClickCount: 1, rageClickTarget: `button:${'x'.repeat(100)}` })));
    const row = (await todayRows(sim, 'frustration_by_page')).find((r) => r.name === '/spans/long');
    expect(row?.top_rage_click_target).toBe(`button:${'x'.repeat(57)}`);
  });
});
