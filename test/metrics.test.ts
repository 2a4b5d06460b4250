// Prometheus metrics (src/metrics): /metrics exists only when configured and refuses without its
// token; the loopback port serves the same on 127.0.0.1; after a scripted sequence (submissions, a
// refused one, a spam, a failed delivery and its retry, Redis gone) each series moved by what it
// should; the exposition parses, and promtool (Debian's `prometheus` package) passes its intake_* series.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startMetricsServer } from '../src/metrics/index.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { pathOf, startTestApp } from './helpers.ts';
import { bearer, createForm, startPipelineApp, submit, waitFor, type PipelineApp } from './pipeline-helpers.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const PROMTOOL = '/usr/bin/promtool';
const MESSAGE = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Could you send me the price list for garden chairs?' };
const SPAM = { name: 'Win', email: 'promo@mailinator.com', message: 'CLICK HERE!!! casino bonus http://bit.ly/a http://bit.ly/b http://45.1.2.3/x cheap SEO guaranteed' };

interface Sample { name: string; labels: Record<string, string>; value: number }

/** The text format's sample lines (comments checked to be HELP or TYPE); throws on a line it cannot read. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      assert.match(line, /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* /, line);
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of match[2]?.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g) ?? []) labels[key!] = value!;
    // The format's special values (prom-client writes NaN as "Nan" before the loop-lag monitor's first figure).
    const value = /^nan$/i.test(match[3]!) ? NaN : Number(match[3] === '+Inf' ? Infinity : match[3]);
    assert.ok(!Number.isNaN(value) || /^nan$/i.test(match[3]!), line);
    samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

/** The sum of the samples named so whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

describe('metrics off', () => {
  it('has no /metrics route and no loopback server when neither setting is given', async () => {
    const t = await startTestApp();
    try {
      assert.equal(t.services.metrics.enabled, false);
      const response = await t.request({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
      assert.equal(response.statusCode, 404);
      assert.equal(await startMetricsServer(t.config, t.services.metrics), null);
    } finally {
      await t.close();
    }
  });
});

describe('metrics on', () => {
  let t: PipelineApp;
  let receiver: FakeProvider;
  let failures = 1;
  before(async () => {
    // The receiver fails the first delivery once (500), then takes every one.
    receiver = await startFakeProvider(() => (failures-- > 0 ? { status: 500, body: { error: 'down' } } : { status: 200, body: { ok: true } }));
    t = await startPipelineApp({
      INTAKE_METRICS_TOKEN: TOKEN,
      INTAKE_METRICS_PORT: '0',
      INTAKE_OUTBOUND_ALLOW: '127.0.0.1',
      INTAKE_DELIVERY_RETRY_SCHEDULE: '20ms',
      // Redis is away from the start (nothing listens on port 1): the breaker opens at the first failure.
      REDIS_URL: 'redis://127.0.0.1:1',
      INTAKE_REDIS_BREAK_AFTER: '1',
    });
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  const scrape = async () => {
    const response = await t.request({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  it('refuses /metrics without its token, and is not in the OpenAPI document', async () => {
    for (const headers of [{}, bearer('wrong-token-0123456789abcdef'), { authorization: TOKEN }]) {
      const response = await t.request({ method: 'GET', url: '/metrics', headers });
      assert.equal(response.statusCode, 401);
      assert.doesNotMatch(response.body, /intake_/);
    }
    const document = (await t.request({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    assert.equal(document.paths['/metrics'], undefined);
  });

  it('serves the same registry on 127.0.0.1 only, from INTAKE_METRICS_PORT', async () => {
    const server = await startMetricsServer(t.config, t.services.metrics);
    assert.ok(server);
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      assert.equal(response.status, 200);
      assert.match(await response.text(), /^# HELP intake_submissions_total /m);
      assert.equal((await fetch(`http://127.0.0.1:${server.port}/other`)).status, 404);
      // Bound to the loopback address alone: another address of this machine is refused.
      const outside = spawnSync('sh', ['-c', `ss -ltn 'sport = :${server.port}'`], { encoding: 'utf8' });
      if (outside.status === 0) assert.match(outside.stdout, new RegExp(`127\\.0\\.0\\.1:${server.port}\\b`));
    } finally {
      await server.close();
    }
  });

  it('moves each series by what a scripted sequence did', async () => {
    const before = parseExposition(await scrape());
    assert.equal(total(before, 'intake_redis_fallback'), 0, 'Redis has not been asked yet');

    const key = await t.createKey();
    const hooked = await createForm(t, key);
    const created = await t.request({ method: 'POST', url: `/api/forms/${hooked.id}/destinations`, headers: bearer(key), payload: { type: 'webhook', url: `${receiver.url}/hook` } });
    assert.equal(created.statusCode, 201, created.body);
    const plain = await createForm(t, key, { spam_protection_enabled: true });
    const ids = [await submit(t, hooked.endpoint, MESSAGE), await submit(t, plain.endpoint, MESSAGE), await submit(t, plain.endpoint, SPAM)];
    const refused = await t.request({ method: 'POST', url: pathOf(plain.endpoint), payload: { name: 'No email' } });
    assert.equal(refused.statusCode, 400, refused.body);
    // A job no worker takes, due a minute ago, and one due in an hour.
    const minuteAgo = new Date(Date.now() - 60_000);
    await t.services.queue.enqueue([{ task: 'metrics_probe', payload: {}, runAt: minuteAgo }, { task: 'metrics_probe', payload: {}, runAt: new Date(Date.now() + 3_600_000) }]);

    const settled = async () => {
      const samples = parseExposition(await scrape());
      const delta = (name: string, labels: Record<string, string> = {}) => total(samples, name, labels) - total(before, name, labels);
      return delta('intake_pipeline_finished_total') === 3 && delta('intake_delivery_attempts_total', { outcome: 'succeeded' }) === 1 ? samples : undefined;
    };
    const after = await waitFor('three processed submissions and a delivered retry', settled);
    const delta = (name: string, labels: Record<string, string> = {}) => total(after, name, labels) - total(before, name, labels);

    assert.equal(delta('intake_submissions_total', { endpoint: 'json', outcome: 'accepted' }), 3);
    assert.equal(delta('intake_submissions_total', { outcome: 'refused', reason: 'validation_error' }), 1);
    assert.equal(delta('intake_submit_duration_seconds_count', { outcome: 'accepted' }), 3);
    assert.equal(delta('intake_submit_duration_seconds_count', { outcome: 'refused' }), 1);
    assert.equal(delta('intake_submit_batch_size_sum'), 3, 'every stored submission in one batch');
    assert.ok(delta('intake_submit_batch_size_count') >= 1);
    assert.equal(delta('intake_spam_verdicts_total', { verdict: 'spam' }), 1);
    assert.equal(delta('intake_spam_verdicts_total', { verdict: 'not_spam' }), 2);
    assert.equal(delta('intake_pipeline_finished_total', { status: 'completed' }), 3);
    assert.equal(delta('intake_pipeline_step_duration_seconds_count', { step: 'spam', outcome: 'ok' }), 3);
    assert.equal(delta('intake_pipeline_step_duration_seconds_count', { step: 'language', outcome: 'ok' }), 2, 'spam stops before language');
    assert.equal(delta('intake_delivery_attempts_total', { kind: 'webhook', outcome: 'retrying' }), 1);
    assert.equal(delta('intake_delivery_attempts_total', { kind: 'webhook', outcome: 'succeeded' }), 1);
    assert.equal(delta('intake_destinations_disabled_total'), 0);
    assert.equal(total(after, 'intake_jobs', { queue: 'metrics_probe', state: 'queued' }), 1);
    assert.equal(total(after, 'intake_jobs', { queue: 'metrics_probe', state: 'scheduled' }), 1);
    assert.ok(total(after, 'intake_jobs_oldest_age_seconds', { queue: 'metrics_probe' }) >= 60);
    assert.equal(total(after, 'intake_redis_fallback'), 1, 'Redis did not answer: memory stands in');
    assert.equal(delta('intake_redis_fallback_openings_total'), 1);
    assert.equal(total(after, 'intake_database_up'), 1);
    assert.equal(total(after, 'intake_live_streams'), 0);
    assert.ok(total(after, 'process_cpu_user_seconds_total') > 0, "prom-client's process metrics are there");
    assert.equal(new Set(ids).size, 3);
  });

  it('passes promtool check metrics on its intake_* series', { skip: !fs.existsSync(PROMTOOL) && `${PROMTOOL} is missing: apt-get install prometheus` }, async () => {
    const body = await scrape();
    // Only Intake's own series: prom-client's process metrics follow Node's names, not ours.
    const ours = body.split('\n').filter((line) => /^(# (HELP|TYPE) )?intake_/.test(line)).join('\n') + '\n';
    assert.match(ours, /intake_submissions_total/);
    const result = spawnSync(PROMTOOL, ['check', 'metrics'], { input: ours, encoding: 'utf8' });
    assert.equal(result.status, 0, `promtool: ${result.stdout}${result.stderr}`);
    assert.equal(`${result.stdout}${result.stderr}`.trim(), '', 'no lint finding');
    const rules = spawnSync(PROMTOOL, ['check', 'rules', 'deploy/prometheus-alerts.yml'], { encoding: 'utf8' });
    assert.equal(rules.status, 0, `promtool check rules: ${rules.stdout}${rules.stderr}`);
  });

  it('names only series it serves in the Grafana dashboard and the alerts of deploy/', async () => {
    const served = new Set([...(await scrape()).matchAll(/^# TYPE (intake_\w+) /gm)].map((m) => m[1]));
    for (const file of ['deploy/grafana-dashboard.json', 'deploy/prometheus-alerts.yml']) {
      const text = fs.readFileSync(file, 'utf8');
      if (file.endsWith('.json')) JSON.parse(text);
      const named = new Set([...text.matchAll(/\b(intake_[a-z_]+)/g)].map((m) => m[1]!.replace(/_(bucket|count|sum)$/, '')));
      assert.ok(named.size > 3, file);
      for (const name of named) assert.ok(served.has(name), `${file} names ${name}, which /metrics does not serve`);
    }
  });
});
