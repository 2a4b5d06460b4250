// The default retry schedule is fast first: a webhook receiver that fails once (a deploy, a
// restart) gets the retry within seconds, not minutes. The schedule itself is configurable.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_DELIVERY_SCHEDULE, DEFAULT_PIPELINE_SCHEDULE, loadConfig } from '../src/config.ts';
import { parseSchedule, retryDelay } from '../src/jobs/backoff.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm, startPipelineApp, submit, waitFor, type PipelineApp } from './pipeline-helpers.ts';

describe('retry schedule', () => {
  it('reads delays with units, repeats the last one and jitters by at most 10 %', () => {
    assert.deepEqual(parseSchedule('0, 250ms,5s,5m ,2h'), [0, 250, 5_000, 300_000, 7_200_000]);
    for (const bad of ['', '5', '5 s', '-5s', '5d', '1.5s', '5s,,5m']) assert.equal(parseSchedule(bad), null, bad);
    const schedule = parseSchedule(DEFAULT_DELIVERY_SCHEDULE)!;
    assert.deepEqual(schedule, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    const total = schedule.reduce((sum, d) => sum + d, 0);
    assert.ok(total > 20 * 3_600_000 && total < 30 * 3_600_000, 'eight attempts span about a day');
    assert.equal(retryDelay(1, schedule, () => 0), 4_500);
    assert.equal(retryDelay(1, schedule, () => 1), 5_500);
    assert.equal(retryDelay(2, schedule, () => 0.5), 300_000);
    assert.equal(retryDelay(50, schedule, () => 0.5), 36_000_000, 'the last delay repeats');
    assert.equal(retryDelay(1, [0]), 0, 'at once stays at once');
    assert.deepEqual(loadConfig({}).pipeline.retrySchedule, parseSchedule(DEFAULT_PIPELINE_SCHEDULE));
    assert.ok(loadConfig({}).pipeline.retrySchedule[0]! <= 5_000, "a provider's blip is retried within seconds");
  });

  it('is configurable, and names the variable when a value is bad or replaced', () => {
    assert.deepEqual(loadConfig({ INTAKE_DELIVERY_RETRY_SCHEDULE: '0,1m' }).delivery.retrySchedule, [0, 60_000]);
    assert.deepEqual(loadConfig({ INTAKE_PIPELINE_RETRY_SCHEDULE: '1s' }).pipeline.retrySchedule, [1_000]);
    assert.throws(() => loadConfig({ INTAKE_DELIVERY_RETRY_SCHEDULE: 'soon' }), /^ConfigError: INTAKE_DELIVERY_RETRY_SCHEDULE: expected delays/);
    assert.throws(() => loadConfig({ INTAKE_PIPELINE_RETRY_SCHEDULE: '200h' }), /INTAKE_PIPELINE_RETRY_SCHEDULE: a delay may not exceed/);
    assert.throws(() => loadConfig({ INTAKE_DELIVERY_RETRY_BASE_MS: '600000' }), /INTAKE_DELIVERY_RETRY_BASE_MS: is replaced by INTAKE_DELIVERY_RETRY_SCHEDULE/);
    assert.throws(() => loadConfig({ INTAKE_PIPELINE_RETRY_MAX_MS: '1' }), /INTAKE_PIPELINE_RETRY_MAX_MS: is replaced by INTAKE_PIPELINE_RETRY_SCHEDULE/);
  });

  describe('a webhook receiver that fails once, on the default schedule', () => {
    let t: PipelineApp;
    let receiver: FakeProvider;
    const arrivals: number[] = [];
    before(async () => {
      receiver = await startFakeProvider(() => {
        arrivals.push(Date.now());
        return arrivals.length === 1 ? { status: 503, body: 'restarting' } : { status: 200, body: { ok: true } };
      });
      t = await startPipelineApp({ INTAKE_OUTBOUND_ALLOW: '127.0.0.1' });
    });
    after(async () => {
      await t?.close();
      await receiver?.close();
    });

    it('gets the retry within 10 seconds', async () => {
      assert.equal(t.config.delivery.retrySchedule.join(), parseSchedule(DEFAULT_DELIVERY_SCHEDULE)!.join());
      const key = await t.createKey();
      const form = await createForm(t, key);
      const created = await t.request({
        method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload: { type: 'webhook', url: `${receiver.url}/hook` },
      });
      assert.equal(created.statusCode, 201, created.body);
      await submit(t, form.endpoint, { name: 'Ada', email: 'ada@example.com', message: 'Hello there, a question about chairs.' });
      await waitFor('the first attempt', () => arrivals[0]);
      await waitFor('the retry', () => arrivals[1], 10_000);
      const gap = arrivals[1]! - arrivals[0]!;
      assert.ok(gap >= 4_500 && gap < 10_000, `the retry came ${gap} ms after the failure`);
      const deliveries = await waitFor('a settled delivery', async () => {
        const response = await t.request({ method: 'GET', url: `/api/forms/${form.id}/destinations/${created.json().id}/deliveries`, headers: bearer(key) });
        const [delivery] = response.json().data as Array<{ status: string; log: Array<{ status_code: number }> }>;
        return delivery?.status === 'succeeded' ? delivery : undefined;
      });
      assert.deepEqual(deliveries.log.map((a) => a.status_code), [503, 200]);
      assert.equal(receiver.requests.length, 2);
    });
  });
});
