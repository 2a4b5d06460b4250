// Webhooks arrive, signed, or say why not: end to end from a submission to a local receiver,
// verified with the `standardwebhooks` package as a receiver would, with retries, redirects,
// 410, the delivery log, manual retry, test events and spam routing.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { startFakeProvider, type FakeProvider, type ReceivedRequest, type Reply } from './fake-provider.ts';
import { bearer, createForm, startPipelineApp, submit, waitFor, type PipelineApp } from './pipeline-helpers.ts';

const MESSAGE = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Could you send me the price list for garden chairs?' };
const SPAM = { name: 'Win', email: 'promo@mailinator.com', message: 'CLICK HERE!!! casino bonus http://bit.ly/a http://bit.ly/b http://45.1.2.3/x cheap SEO guaranteed' };

interface DeliveryView {
  id: string;
  status: string;
  attempts: number;
  event_id: string;
  submission_id: string | null;
  last_error: string | null;
  log: Array<{ attempt: number; status_code: number | null; error: string | null; response_body: string | null }>;
}

describe('webhook deliveries', () => {
  let t: PipelineApp;
  let receiver: FakeProvider;
  /** What the receiver answers next, per path; the last entry repeats. */
  const scripts = new Map<string, Reply[]>();
  before(async () => {
    receiver = await startFakeProvider((request) => {
      const script = scripts.get(request.path.split('?')[0]!) ?? [{ status: 200, body: { ok: true } }];
      return (script.length > 1 ? script.shift() : script[0])!;
    });
    t = await startPipelineApp({
      INTAKE_OUTBOUND_ALLOW: '127.0.0.1',
      INTAKE_DELIVERY_RETRY_SCHEDULE: '20ms,40ms,80ms,100ms',
      INTAKE_DELIVERY_MAX_ATTEMPTS: '3',
      INTAKE_DELIVERY_DISABLE_AFTER: '100',
      INTAKE_DELIVERY_TIMEOUT_MS: '1000',
    });
  });
  after(async () => {
    await t?.close();
    await receiver.close();
  });

  const api = (key: string) => ({
    get: (url: string) => t.request({ method: 'GET', url, headers: bearer(key) }),
    post: (url: string, payload?: object) => t.request({ method: 'POST', url, headers: bearer(key), ...(payload && { payload }) }),
    patch: (url: string, payload: object) => t.request({ method: 'PATCH', url, headers: bearer(key), payload }),
    delete: (url: string) => t.request({ method: 'DELETE', url, headers: bearer(key) }),
  });
  const received = (path: string) => receiver.requests.filter((r) => r.path === path);

  async function setup(path: string, body: object = {}, formOverrides: Record<string, unknown> = {}) {
    const key = await t.createKey();
    const form = await createForm(t, key, formOverrides);
    const created = await api(key).post(`/api/forms/${form.id}/destinations`, { type: 'webhook', url: `${receiver.url}${path}`, ...body });
    assert.equal(created.statusCode, 201, created.body);
    return { key, form, destination: created.json() as { id: string; secret: string } };
  }

  async function deliveries(key: string, formId: string, destinationId: string): Promise<DeliveryView[]> {
    const response = await api(key).get(`/api/forms/${formId}/destinations/${destinationId}/deliveries`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  }

  const settledDelivery = (key: string, formId: string, destinationId: string) =>
    waitFor('a settled delivery', async () => (await deliveries(key, formId, destinationId)).find((d) => d.status !== 'pending'));

  it('delivers a signed submission.created event that standardwebhooks verifies', async () => {
    const { key, form, destination } = await setup('/hook/signed');
    assert.match(destination.secret, /^whsec_/);
    const id = await submit(t, form.endpoint, MESSAGE);
    const request = await waitFor('the webhook', async () => received('/hook/signed')[0]);
    const event = new Webhook(destination.secret).verify(request.raw, request.headers as Record<string, string>) as {
      id: string; type: string; data: { form: { id: string; name: string; version: number }; submission: { id: string; data: object; processing_status: string } };
    };
    assert.equal(event.type, 'submission.created');
    assert.match(event.id, /^evt_/);
    assert.equal(request.headers['webhook-id'], event.id);
    assert.equal(event.data.form.id, form.id);
    assert.equal(event.data.form.version, 1);
    assert.equal(event.data.submission.id, id);
    assert.deepEqual(event.data.submission.data, MESSAGE);
    assert.equal(event.data.submission.processing_status, 'completed', 'delivered after processing');
    const key64 = Buffer.from(destination.secret.slice('whsec_'.length), 'base64');
    assert.equal(request.headers['x-intake-signature'], `sha256=${createHmac('sha256', key64).update(request.raw).digest('hex')}`);
    assert.throws(() => new Webhook(destination.secret).verify(request.raw.replace('Ada', 'Eve'), request.headers as Record<string, string>));

    const [delivery] = [await settledDelivery(key, form.id, destination.id)];
    assert.equal(delivery.status, 'succeeded');
    assert.equal(delivery.submission_id, id);
    assert.equal(delivery.log.length, 1);
    assert.equal(delivery.log[0]!.status_code, 200);
    assert.equal(delivery.log[0]!.response_body, '{"ok":true}');
    const shown = (await api(key).get(`/api/forms/${form.id}/destinations/${destination.id}`)).json();
    assert.equal(shown.secret, undefined, 'the secret is shown only at creation');
    assert.ok(shown.last_delivered_at);
  });

  it("delivers through the form's own webhook_* settings, signed with its plain secret", async () => {
    const key = await t.createKey();
    const secret = 'plain-secret-42';
    const form = await createForm(t, key, { webhook_enabled: true, webhook_url: `${receiver.url}/hook/form-level`, webhook_secret: secret });
    const list = (await api(key).get(`/api/forms/${form.id}/destinations`)).json().destinations;
    assert.equal(list.length, 1);
    assert.equal(list[0].source, 'form');
    await submit(t, form.endpoint, MESSAGE);
    const request = await waitFor('the webhook', async () => received('/hook/form-level')[0]);
    new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`).verify(request.raw, request.headers as Record<string, string>);
    const refused = await api(key).patch(`/api/forms/${form.id}/destinations/${list[0].id}`, { name: 'x' });
    assert.equal(refused.statusCode, 422);
    assert.match(JSON.stringify(refused.json().errors), /PUT \/api\/forms/);
    await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { webhook_enabled: false } });
    assert.equal((await api(key).get(`/api/forms/${form.id}/destinations`)).json().destinations[0].enabled, false);
  });

  it('retries a receiver that fails twice, with the same event id, and logs every attempt', async () => {
    scripts.set('/hook/flaky', [{ status: 500, body: 'boom' }, { status: 503, body: {}, headers: { 'retry-after': '0' } }, { status: 204 }]);
    const { key, form, destination } = await setup('/hook/flaky');
    await submit(t, form.endpoint, MESSAGE);
    const delivery = await settledDelivery(key, form.id, destination.id);
    assert.equal(delivery.status, 'succeeded');
    assert.deepEqual(delivery.log.map((a) => a.status_code), [500, 503, 204]);
    assert.equal(delivery.log[0]!.response_body, 'boom');
    const ids = new Set(received('/hook/flaky').map((r) => r.headers['webhook-id']));
    assert.equal(ids.size, 1, 'one event id across retries');
    assert.ok(t.log.some((l) => l.message.includes('retrying later') && l.object.deliveryId === delivery.id));
  });

  it('treats a redirect as a failure and never follows it', async () => {
    scripts.set('/hook/moved', [{ status: 302, headers: { location: `${receiver.url}/hook/elsewhere` } }]);
    const { key, form, destination } = await setup('/hook/moved');
    await submit(t, form.endpoint, MESSAGE);
    const delivery = await settledDelivery(key, form.id, destination.id);
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.log.length, 3, 'retried, then failed after the last attempt');
    assert.match(delivery.last_error ?? '', /redirect/);
    assert.equal(received('/hook/elsewhere').length, 0);
    const shown = (await api(key).get(`/api/forms/${form.id}/destinations/${destination.id}`)).json();
    assert.equal(shown.enabled, false, 'a delivery that fails its last attempt disables the destination');
    assert.match(shown.disabled_reason, /all 3 attempts/);
    assert.ok(t.log.some((l) => l.level === 'error' && l.message === 'delivery failed for good' && l.object.deliveryId === delivery.id));
  });

  it('disables the destination on 410, and a manual retry after re-enabling delivers', async () => {
    scripts.set('/hook/gone', [{ status: 410 }, { status: 200 }]);
    const { key, form, destination } = await setup('/hook/gone');
    await submit(t, form.endpoint, MESSAGE);
    const failed = await settledDelivery(key, form.id, destination.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.log.length, 1);
    const shown = (await api(key).get(`/api/forms/${form.id}/destinations/${destination.id}`)).json();
    assert.equal(shown.enabled, false);
    assert.match(shown.disabled_reason, /410/);

    const retryUrl = `/api/forms/${form.id}/destinations/${destination.id}/deliveries/${failed.id}/retry`;
    const whileDisabled = await api(key).post(retryUrl);
    assert.equal(whileDisabled.statusCode, 422);
    const enabled = await api(key).patch(`/api/forms/${form.id}/destinations/${destination.id}`, { enabled: true });
    assert.equal(enabled.json().enabled, true);
    assert.equal(enabled.json().failure_count, 0);
    const retried = await api(key).post(retryUrl);
    assert.equal(retried.statusCode, 202, retried.body);
    const done = await waitFor('the retried delivery', async () => (await deliveries(key, form.id, destination.id)).find((d) => d.status === 'succeeded'));
    assert.equal(done.id, failed.id);
    assert.deepEqual(done.log.map((a) => a.status_code), [410, 200]);
    const again = await api(key).post(retryUrl);
    assert.equal(again.statusCode, 422, 'only a failed delivery can be retried');
  });

  it('delivers spam only to destinations that ask for it', async () => {
    const { key, form, destination } = await setup('/hook/no-spam', {}, { spam_protection_enabled: true });
    const wantsSpam = await api(key).post(`/api/forms/${form.id}/destinations`, { type: 'webhook', url: `${receiver.url}/hook/spam-too`, deliver_spam: true });
    assert.equal(wantsSpam.json().deliver_spam, true);
    await submit(t, form.endpoint, SPAM);
    const request = await waitFor('the spam webhook', async () => received('/hook/spam-too')[0]);
    assert.equal((JSON.parse(request.raw) as { data: { submission: { spam_flag: boolean } } }).data.submission.spam_flag, true);
    await submit(t, form.endpoint, MESSAGE);
    await waitFor('the clean webhook', async () => received('/hook/no-spam')[0]);
    const log = await deliveries(key, form.id, destination.id);
    assert.equal(log.length, 1, 'the spam submission was never delivered to the destination that does not want spam');
  });

  it('sends a test event on demand and logs it without touching the destination record', async () => {
    scripts.set('/hook/test', [{ status: 500 }, { status: 200 }]);
    const { key, form, destination } = await setup('/hook/test');
    const failedTest = await api(key).post(`/api/forms/${form.id}/destinations/${destination.id}/test`);
    assert.equal(failedTest.statusCode, 200, failedTest.body);
    assert.equal(failedTest.json().delivered, false);
    const test = (await api(key).post(`/api/forms/${form.id}/destinations/${destination.id}/test`)).json();
    assert.equal(test.delivered, true);
    assert.equal(test.delivery.submission_id, null);
    const request = received('/hook/test').at(-1)!;
    const event = new Webhook(destination.secret).verify(request.raw, request.headers as Record<string, string>) as { type: string; data: { submission: { data: Record<string, unknown> } } };
    assert.deepEqual(Object.keys(event.data.submission.data).sort(), ['age', 'email', 'message', 'name']);
    assert.equal(event.type, 'submission.test', 'a receiver acting on submission.created never acts on a test');
    const shown = (await api(key).get(`/api/forms/${form.id}/destinations/${destination.id}`)).json();
    assert.equal(shown.failure_count, 0);
    assert.equal((await deliveries(key, form.id, destination.id)).length, 2);
  });
});

describe('a dead receiver', () => {
  let t: PipelineApp;
  let receiver: FakeProvider;
  before(async () => {
    receiver = await startFakeProvider((request: ReceivedRequest) => (request.path === '/dead' ? { hang: true } : { status: 200 }));
    // Four delivery slots and six deliveries to a receiver that never answers.
    t = await startPipelineApp({ INTAKE_OUTBOUND_ALLOW: '127.0.0.1', INTAKE_DELIVERY_CONCURRENCY: '4', INTAKE_DELIVERY_TIMEOUT_MS: '5000' });
  });
  after(async () => {
    await t?.close();
    await receiver.close();
  });

  it('never delays the other destinations: it gets at most two slots at a time', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    for (const path of ['/dead', '/alive']) {
      await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload: { type: 'webhook', url: `${receiver.url}${path}` } });
    }
    for (let i = 0; i < 6; i++) await submit(t, form.endpoint, { ...MESSAGE, name: `Person ${i}` });
    await waitFor('six deliveries to the live receiver', async () => receiver.requests.filter((r) => r.path === '/alive').length >= 6 || undefined, 4_000);
    assert.ok(receiver.requests.filter((r) => r.path === '/dead').length <= 2, 'no more than two requests wait on the dead receiver at once');
  });
});

describe('destinations API', () => {
  let t: PipelineApp;
  before(async () => {
    t = await startPipelineApp({ INTAKE_OUTBOUND_ALLOW: '127.0.0.1' });
  });
  after(() => t?.close());

  it('creates, lists, changes, re-keys and deletes destinations, each owner seeing only their own', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const base = `/api/forms/${form.id}/destinations`;
    const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, k = key) =>
      t.request({ method, url, headers: bearer(k), ...(payload && { payload }) });

    const webhook = await req('POST', base, { type: 'webhook', url: 'https://hooks.example.com/intake', name: 'CRM' });
    assert.equal(webhook.statusCode, 201, webhook.body);
    const { id, secret } = webhook.json();
    const slack = await req('POST', base, { type: 'slack', url: 'https://hooks.slack.com/services/T/B/X' });
    assert.equal(slack.json().name, 'Slack');
    assert.equal(slack.json().secret, undefined, 'only webhooks have a secret');
    const telegram = await req('POST', base, { type: 'telegram', bot_token: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw', chat_id: -1001234 });
    assert.equal(telegram.statusCode, 201, telegram.body);
    assert.equal(telegram.json().bot_token, '12345678…');
    assert.equal(telegram.json().chat_id, '-1001234');
    const email = await req('POST', base, { type: 'email', recipients: ['Team@Example.com'] });
    assert.deepEqual(email.json().recipients, ['team@example.com']);

    const listed = (await req('GET', base)).json().destinations;
    assert.deepEqual(listed.map((d: { type: string }) => d.type), ['webhook', 'slack', 'telegram', 'email']);
    assert.ok(listed.every((d: { secret?: string }) => d.secret === undefined));

    const renamed = await req('PATCH', `${base}/${id}`, { name: 'CRM (prod)', enabled: false, deliver_spam: true });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.deepEqual([renamed.json().name, renamed.json().enabled, renamed.json().deliver_spam], ['CRM (prod)', false, true]);
    const rekeyed = await req('POST', `${base}/${id}/regenerate-secret`);
    assert.match(rekeyed.json().secret, /^whsec_/);
    assert.notEqual(rekeyed.json().secret, secret);
    assert.equal((await req('POST', `${base}/${slack.json().id}/regenerate-secret`)).statusCode, 422);

    const other = await t.createKey();
    assert.equal((await req('GET', `${base}/${id}`, undefined, other)).statusCode, 404);
    assert.equal((await req('GET', base, undefined, other)).statusCode, 404);
    assert.equal((await req('DELETE', `${base}/${id}`, undefined, other)).statusCode, 404);

    const deleted = await req('DELETE', `${base}/${id}`);
    assert.equal(deleted.statusCode, 200);
    assert.equal((await req('GET', `${base}/${id}`)).statusCode, 404);
    assert.deepEqual((await req('GET', `${base}/${id}`)).json(), { errors: 'Destination not found' });
  });

  it("writes a form's webhook_* settings and its webhook destination together, or neither", async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const { db, engine } = t.database;
    // A real fault in the second write: the database refuses the form's own destination.
    const refuse = engine === 'postgres'
      ? [`create function refuse_form_webhook() returns trigger language plpgsql as $$ begin raise exception 'refused for the test'; end $$`,
        `create trigger refuse_form_webhook before insert on destinations for each row when (new.source = 'form') execute function refuse_form_webhook()`]
      : [`create trigger refuse_form_webhook before insert on destinations when new.source = 'form' begin select raise(abort, 'refused for the test'); end`];
    for (const statement of refuse) await sql.raw(statement).execute(db);
    const settings = { webhook_enabled: true, webhook_url: 'http://127.0.0.1:9/hook', webhook_secret: 'a-secret-of-ours' };
    const destinations = async () => (await t.request({ method: 'GET', url: `/api/forms/${form.id}/destinations`, headers: bearer(key) })).json().destinations;
    const failed = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: settings });
    assert.equal(failed.statusCode, 500, failed.body);
    const kept = (await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(key) })).json();
    assert.equal(kept.webhook_enabled, false, 'the form is unchanged');
    assert.equal(kept.webhook_url ?? null, null);
    assert.equal((await destinations()).length, 0);
    await sql.raw('drop trigger refuse_form_webhook' + (engine === 'postgres' ? ' on destinations' : '')).execute(db);
    const saved = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: settings });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.equal((await destinations()).length, 1);
  });

  it('refuses bad destinations with 422 naming the field, and stores nothing', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const base = `/api/forms/${form.id}/destinations`;
    const post = (payload: object) => t.request({ method: 'POST', url: base, headers: bearer(key), payload });
    const cases: Array<[object, string]> = [
      [{ type: 'webhook' }, 'url'],
      [{ type: 'webhook', url: 'http://hooks.example.com/x' }, 'url'],
      [{ type: 'slack', url: 'https://10.1.2.3/hook' }, 'url'],
      [{ type: 'webhook', url: 'https://x.example.com', recipients: ['a@example.com'] }, 'recipients'],
      [{ type: 'telegram', bot_token: 'nope', chat_id: '1' }, 'bot_token'],
      [{ type: 'telegram', bot_token: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw' }, 'chat_id'],
      [{ type: 'email', recipients: [] }, 'recipients'],
      [{ type: 'email', recipients: ['not-an-email'] }, 'recipients'],
      [{ type: 'pager' }, 'type'],
      [{ type: 'webhook', url: 'https://x.example.com', colour: 'red' }, 'colour'],
    ];
    for (const [payload, field] of cases) {
      const response = await post(payload);
      assert.equal(response.statusCode, 422, `${JSON.stringify(payload)} → ${response.body}`);
      assert.ok(response.json().errors[field], `${JSON.stringify(payload)} names ${field}: ${response.body}`);
    }
    assert.deepEqual((await t.request({ method: 'GET', url: base, headers: bearer(key) })).json().destinations, []);
    assert.equal((await t.request({ method: 'GET', url: base })).statusCode, 401);
  });
});
