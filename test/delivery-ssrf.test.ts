// Destinations cannot be aimed at the server's own network (SSRF), through the API: a URL that
// names a local, private or otherwise unsafe target is refused when saved; a host name is resolved
// only when a delivery is sent, and a name that resolves to a refused address is not called.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Resolver } from '../src/delivery/outbound/index.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm, startPipelineApp, submit, waitFor, type PipelineApp } from './pipeline-helpers.ts';
import { CONTACT_SCHEMA } from './fixtures.ts';

type Json = Record<string, any>;

/** URLs no destination may have, and what the refusal must say. */
const REFUSED: Array<[string, RegExp]> = [
  ['http://10.0.0.5/x', /must be an HTTPS URL/],
  ['https://10.0.0.5/x', /private address \(10\.0\.0\.5\)/],
  ['https://127.0.0.1/x', /loopback address \(127\.0\.0\.1\)/],
  ['https://[::ffff:127.0.0.1]/', /loopback address/],
  ['https://169.254.169.254/latest/meta-data', /link-local address/],
  ['https://localhost/', /localhost/],
  ['https://LOCALHOST./hook', /localhost/],
  ['ftp://x', /must be an HTTPS URL/],
  ['https://user:secret@hooks.example.com/x', /user name or password/],
  ['not a url', /not a valid URL/],
];

/** A TCP server that only counts connections: a request that gets through is seen even without TLS. */
async function connectionCounter() {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const ADDRESSES: Record<string, { address: string; family: 4 | 6 }> = {
  'loopback.test': { address: '127.0.0.1', family: 4 },
  'mapped.test': { address: '::ffff:127.0.0.1', family: 6 },
  // On the allow list by name: proves this resolver is the one in use and the request can get through.
  'allowed.test': { address: '127.0.0.1', family: 4 },
};
const resolve: Resolver = async (hostname) => {
  const answer = ADDRESSES[hostname];
  if (!answer) throw Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' });
  return [answer];
};

describe('destination URLs and SSRF', () => {
  let t: PipelineApp;
  let key: string;
  before(async () => {
    // 127.0.0.1 is not on the allow list; only the name allowed.test is.
    t = await startPipelineApp({ INTAKE_OUTBOUND_ALLOW: 'allowed.test' }, { outbound: { resolve } });
    key = await t.createKey();
  });
  after(async () => {
    await t?.close();
  });

  const create = (formId: string, body: Json) =>
    t.request({ method: 'POST', url: `/api/forms/${formId}/destinations`, headers: bearer(key), payload: body });

  it('refuses to create a destination whose URL points somewhere unsafe, saying why', async () => {
    const form = await createForm(t, key);
    for (const [url, message] of REFUSED) {
      const response = await create(form.id, { type: 'webhook', url });
      assert.equal(response.statusCode, 422, `${url}: ${response.body}`);
      const { errors } = response.json() as { errors: Record<string, string[]> };
      assert.deepEqual(Object.keys(errors), ['url'], url);
      assert.equal(errors.url!.length, 1, url);
      assert.match(errors.url![0]!, message, url);
    }
    for (const type of ['slack', 'discord', 'teams', 'google_chat']) {
      const response = await create(form.id, { type, url: 'https://10.0.0.5/hooks/x' });
      assert.equal(response.statusCode, 422, `${type}: ${response.body}`);
      assert.match((response.json() as Json).errors.url[0], /private address \(10\.0\.0\.5\)/);
    }
    const list = await t.request({ method: 'GET', url: `/api/forms/${form.id}/destinations`, headers: bearer(key) });
    assert.deepEqual((list.json() as Json).destinations, [], 'nothing was created');
  });

  it("refuses the same URLs as a form's own webhook_url, on create and on update", async () => {
    const form = await createForm(t, key);
    for (const [url, message] of REFUSED) {
      const payload = { name: 'Hooked', slug: `hooked-${Math.random().toString(36).slice(2, 8)}`, visibility: 'public', fields_schema: CONTACT_SCHEMA, webhook_url: url };
      const created = await t.request({ method: 'POST', url: '/api/forms', headers: bearer(key), payload });
      assert.equal(created.statusCode, 422, `${url}: ${created.body}`);
      const errors = (created.json() as { errors: Record<string, string[]> }).errors;
      assert.ok(errors.webhook_url?.some((m) => message.test(m)), `${url}: ${created.body}`);

      const updated = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { webhook_url: url } });
      assert.equal(updated.statusCode, 422, `${url}: ${updated.body}`);
      assert.ok((updated.json() as Json).errors.webhook_url?.some((m: string) => message.test(m)), `${url}: ${updated.body}`);
    }
  });

  describe('at delivery time', () => {
    let loopback: Awaited<ReturnType<typeof connectionCounter>>;
    let mapped: Awaited<ReturnType<typeof connectionCounter>>;
    let allowed: FakeProvider;
    before(async () => {
      loopback = await connectionCounter();
      mapped = await connectionCounter();
      allowed = await startFakeProvider(() => ({ status: 200, body: { ok: true } }));
    });
    after(async () => {
      await loopback?.close();
      await mapped?.close();
      await allowed?.close();
    });

    it('does not call a host name that resolves to a refused address, and logs why', async () => {
      const form = await createForm(t, key);
      // Saving checks the URL's text only: these names are not resolved yet.
      const ids: Record<string, string> = {};
      const urls: Record<string, string> = {
        loopback: `https://loopback.test:${loopback.port}/hook`,
        mapped: `https://mapped.test:${mapped.port}/hook`,
        allowed: `http://allowed.test:${new URL(allowed.url).port}/hook`,
      };
      for (const [name, url] of Object.entries(urls)) {
        const response = await create(form.id, { type: 'webhook', name, url });
        assert.equal(response.statusCode, 201, `${url}: ${response.body}`);
        ids[name] = (response.json() as Json).id;
      }
      const submissionId = await submit(t, form.endpoint, { name: 'Ada', email: 'ada@example.com', message: 'Hello' });

      const finished = (name: string) => waitFor(`the ${name} delivery`, async () => {
        const response = await t.request({ method: 'GET', url: `/api/forms/${form.id}/destinations/${ids[name]}/deliveries`, headers: bearer(key) });
        assert.equal(response.statusCode, 200, response.body);
        const [delivery] = (response.json() as { data: Json[] }).data;
        return delivery && delivery.status !== 'pending' ? delivery : undefined;
      });

      // The control: a name on the allow list resolves through the same resolver and is called.
      const control = await finished('allowed');
      assert.equal(control.status, 'succeeded', JSON.stringify(control));
      assert.equal(allowed.requests.length, 1);
      assert.equal(allowed.requests[0]!.headers.host, `allowed.test:${new URL(allowed.url).port}`);

      for (const [name, pattern] of [
        ['loopback', /loopback\.test resolves to a loopback address \(127\.0\.0\.1\)/],
        ['mapped', /mapped\.test resolves to a loopback address \(::ffff:127\.0\.0\.1\)/],
      ] as const) {
        const delivery = await finished(name);
        assert.equal(delivery.status, 'failed', JSON.stringify(delivery));
        assert.equal(delivery.submission_id, submissionId);
        assert.match(String(delivery.last_error), pattern);
        assert.equal(delivery.attempts, 1, 'a refused address is not retried');
        assert.equal(delivery.next_attempt_at, null);
        assert.equal(delivery.log[0].status_code, null);
      }
      assert.equal(loopback.connections(), 0, 'nothing connected to the loopback receiver');
      assert.equal(mapped.connections(), 0, 'nothing connected through the IPv4-mapped address');
    });
  });
});
