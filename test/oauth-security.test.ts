// The OAuth server under attack, over requests (both engines): a shared browser after log-out, a
// password change, credentials read from the database, registration floods and oversized
// metadata, clients nobody allowed, expired records purged by the scheduled run, and the redirect
// host the Integrations list shows. The same shared-browser scenario in Chromium is in
// mcp-oauth.test.ts.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../src/db/database.ts';
import { migrateUpTo } from '../src/db/migrate.ts';
import { oauthStore } from '../src/oauth/store.ts';
import { startRetentionWorker } from '../src/retention/worker.ts';
import { DashboardClient } from './dashboard-helpers.ts';
import { createTestStore, startTestApp, type TestApp } from './helpers.ts';
import { authorization, authorize, CALLBACK_A, CALLBACK_B, location, register, token } from './oauth-helpers.ts';
import { waitFor } from './pipeline-helpers.ts';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';
const PASSWORD = 'correct horse battery staple';
const DAY_MS = 86_400_000;

type Reply = Awaited<ReturnType<TestApp['request']>>;

async function newOwner(t: TestApp, email: string): Promise<string> {
  const link = await t.services.dashboard.passwordLink(email, true);
  await t.services.dashboard.usePasswordLink(link.token, PASSWORD);
  return link.account.id;
}

describe('OAuth: sessions, stored credentials, registrations', () => {
  let t: TestApp;
  let origin: string;
  let alice: string;
  let bob: string;

  before(async () => {
    t = await startTestApp();
    origin = ((await t.request({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json() as { issuer: string }).issuer;
    alice = await newOwner(t, ALICE);
    bob = await newOwner(t, BOB);
  });
  after(() => t?.close());

  it('shared browser: after Alice logs out, an app she allowed gets the log-in page, and once Bob logs in, his consent page and a code acting as Bob', async () => {
    const client = (await register(t)).json() as { client_id: string };
    const browser = new DashboardClient(t);
    assert.equal((await browser.logIn(ALICE, PASSWORD)).statusCode, 303);
    const first = authorization(t, origin, client.client_id, CALLBACK_B);
    const allowed = await authorize(browser, first.url, true);
    assert.equal(allowed.pages.length, 1, 'Alice saw the consent page once');
    assert.match(allowed.stoppedAt, /^http:\/\/localhost:4002\/callback\?code=/);
    // While Alice is still logged in, the app she allowed is answered without a page, as before.
    assert.match((await authorize(browser, authorization(t, origin, client.client_id, CALLBACK_B).url, false)).stoppedAt, /\?code=/);

    assert.equal((await browser.post('/logout')).statusCode, 303);
    const nobody = await browser.get(authorization(t, origin, client.client_id, CALLBACK_B).url);
    assert.equal(nobody.statusCode, 303);
    assert.match(location(nobody), /\/oauth\/consent\//, 'nobody logged in: the consent step, not a code');
    assert.match(location(await browser.get(location(nobody))), /^\/login\?next=/);

    assert.equal((await browser.logIn(BOB, PASSWORD)).statusCode, 303);
    const second = authorization(t, origin, client.client_id, CALLBACK_B);
    const asBob = await authorize(browser, second.url, true);
    assert.equal(asBob.pages.length, 1, 'Bob is shown the consent page');
    assert.match(asBob.pages[0]!, /bob@example\.com/);
    const tokens = await second.exchange(new URL(asBob.stoppedAt).searchParams.get('code')!);
    assert.equal((await t.services.oauth.authenticate(tokens.access_token, origin))?.account.email, BOB);
    assert.equal((await t.services.oauth.connectedApps(bob)).length, 1);
  });

  it('a log-in as someone else without logging out first does not inherit the provider session either', async () => {
    const client = (await register(t)).json() as { client_id: string };
    const browser = new DashboardClient(t);
    await browser.logIn(ALICE, PASSWORD);
    assert.match((await authorize(browser, authorization(t, origin, client.client_id, CALLBACK_A).url, true)).stoppedAt, /\?code=/);
    // A second log-in in the same browser (the form posted again) replaces only the dashboard cookie.
    await browser.post('/login', { email: BOB, password: PASSWORD });
    const response = await browser.get(authorization(t, origin, client.client_id, CALLBACK_A).url);
    assert.match(location(response), /\/oauth\/consent\//);
  });

  it('a password change ends the account\'s provider sessions in every browser', async () => {
    const client = (await register(t)).json() as { client_id: string };
    const elsewhere = new DashboardClient(t);
    await elsewhere.logIn(ALICE, PASSWORD);
    assert.match((await authorize(elsewhere, authorization(t, origin, client.client_id, CALLBACK_A).url, true)).stoppedAt, /\?code=/);
    const sessions = () => t.database.db.selectFrom('oauth_records').select('id').where('model', '=', 'Session').where('account_id', '=', alice).execute();
    assert.ok((await sessions()).length > 0);
    const here = new DashboardClient(t);
    await here.logIn(ALICE, PASSWORD);
    await here.get('/account');
    assert.equal((await here.post('/account/password', { current_password: PASSWORD, password: PASSWORD })).statusCode, 303);
    assert.deepEqual(await sessions(), []);
  });

  it('keeps no credential in the database: tokens, codes and session cookies are stored by hash, and a stored id is refused at /oauth/token and /mcp', async () => {
    const client = (await register(t)).json() as { client_id: string };
    const browser = new DashboardClient(t);
    await browser.logIn(ALICE, PASSWORD);
    const flow = authorization(t, origin, client.client_id, CALLBACK_A);
    const code = new URL((await authorize(browser, flow.url, true)).stoppedAt).searchParams.get('code')!;
    const tokens = await flow.exchange(code);
    const sessionCookie = browser.cookies.get('_session')!;
    assert.ok(sessionCookie, 'the provider keeps a browser session');

    const rows = await t.database.db.selectFrom('oauth_records').select(['model', 'id', 'payload']).execute();
    const dump = JSON.stringify(rows);
    for (const [name, secret] of Object.entries({ code, access: tokens.access_token, refresh: tokens.refresh_token, session: sessionCookie })) {
      assert.ok(!dump.includes(secret), `the ${name} is nowhere in oauth_records`);
    }
    const stored = rows.filter((row) => row.model === 'RefreshToken' || row.model === 'AccessToken');
    assert.ok(stored.some((row) => row.model === 'RefreshToken') && stored.some((row) => row.model === 'AccessToken'));
    for (const row of stored) {
      const refreshed = await token(t, { grant_type: 'refresh_token', refresh_token: row.id, client_id: client.client_id });
      assert.equal(refreshed.statusCode, 400, `${row.model} id at /oauth/token`);
      assert.equal((refreshed.json() as { error: string }).error, 'invalid_grant');
      const mcp = await t.request({ method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${row.id}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } });
      assert.equal(mcp.statusCode, 401, `${row.model} id at /mcp`);
    }
    // The real ones still work.
    const mcp = await t.request({ method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } });
    assert.equal(mcp.statusCode, 200);
    const refreshed = await token(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id });
    assert.equal(refreshed.statusCode, 200, refreshed.body);
  });

  it('shows on the Integrations list the redirect host the owner consented through, not the first registered', async () => {
    const client = (await register(t, { client_name: 'Two redirects' })).json() as { client_id: string };
    const browser = new DashboardClient(t);
    await browser.logIn(BOB, PASSWORD);
    assert.match((await authorize(browser, authorization(t, origin, client.client_id, CALLBACK_B).url, true)).stoppedAt, /\?code=/);
    const app = (await t.services.oauth.connectedApps(bob)).find((a) => a.clientId === client.client_id);
    assert.equal(app?.redirectHost, 'localhost:4002');
    assert.match((await browser.get('/integrations')).body, /localhost:4002/);
  });

  it('refuses oversized registration metadata with 400 invalid_client_metadata', async () => {
    const refused = async (metadata: Record<string, unknown>, error = 'invalid_client_metadata') => {
      const response = await register(t, metadata);
      assert.equal(response.statusCode, 400, JSON.stringify(metadata).slice(0, 80));
      assert.equal((response.json() as { error: string }).error, error);
    };
    await refused({ client_name: 'x'.repeat(101) });
    await refused({ client_name: 'x'.repeat(50_000) });
    await refused({ redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:${5000 + i}/callback`) });
    // RFC 7591's own code for a redirect URI refused.
    await refused({ redirect_uris: [`http://127.0.0.1:4001/${'a'.repeat(600)}`] }, 'invalid_redirect_uri');
    await refused({ client_uri: `https://example.com/${'a'.repeat(600)}` });
    await refused({ contacts: Array.from({ length: 11 }, (_, i) => `c${i}@example.com`) });
    assert.equal((await register(t, { client_name: 'x'.repeat(100), redirect_uris: Array.from({ length: 10 }, (_, i) => `http://127.0.0.1:${5000 + i}/callback`) })).statusCode, 201);
  });

  it('lets a client nobody allowed expire after a day, and the scheduled run purges it and abandoned interactions without any consent', async () => {
    const unused = (await register(t, { client_name: 'Never allowed' })).json() as { client_id: string };
    const used = (await register(t, { client_name: 'Allowed' })).json() as { client_id: string };
    const browser = new DashboardClient(t);
    await browser.logIn(BOB, PASSWORD);
    assert.match((await authorize(browser, authorization(t, origin, used.client_id, CALLBACK_A).url, true)).stoppedAt, /\?code=/);
    // An anonymous authorization request that nobody answers leaves an interaction.
    assert.equal((await t.request({ method: 'GET', url: authorization(t, origin, unused.client_id, CALLBACK_A).url })).statusCode, 303);
    const { db } = t.database;
    const count = async (model: string, id?: string) => {
      let query = db.selectFrom('oauth_records').select('id').where('model', '=', model);
      if (id) query = query.where('id', '=', id);
      return (await query.execute()).length;
    };
    assert.ok((await count('Interaction')) > 0);

    const later = oauthStore(db, t.secrets, () => new Date(Date.now() + DAY_MS + 60_000));
    assert.equal(await later.adapterFor('Client').find(unused.client_id), undefined, 'gone for the provider after a day');
    assert.ok(await later.adapterFor('Client').find(used.client_id), 'an allowed client stays');

    const worker = await startRetentionWorker({
      db, queue: t.services.queue, retention: t.services.retention, intervalMs: 3_600_000, log: { info() {}, error() {} },
      clock: () => new Date(Date.now() + 30 * DAY_MS), expiredOauth: later.removeExpired,
    });
    try {
      await waitFor('the scheduled purge', async () => ((await count('Client', unused.client_id)) + (await count('Interaction')) === 0 ? true : undefined), 20_000);
    } finally {
      await worker.stop();
    }
    assert.equal(await count('Client', unused.client_id), 0, 'the unused client was purged');
    assert.equal(await count('Interaction'), 0, 'abandoned interactions were purged');
    assert.equal(await count('Client', used.client_id), 1);
  });
});

describe('OAuth: rate limits per address', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ INTAKE_OAUTH_RATE_LIMIT: '10', INTAKE_OAUTH_REGISTER_RATE_LIMIT: '3' });
  });
  after(() => t?.close());

  it('answers a registration flood from one address with 429, and caps every /oauth request per minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await register(t)).statusCode);
    assert.deepEqual(statuses, [201, 201, 201, 429, 429]);
    const flooded = await register(t);
    assert.ok(Number(flooded.headers['retry-after']) > 0);
    const clients = await t.database.db.selectFrom('oauth_records').select('id').where('model', '=', 'Client').execute();
    assert.equal(clients.length, 3, 'nothing stored past the budget');

    // Six requests so far in the zone; authorization requests take the rest of the minute's ten.
    const more: number[] = [];
    for (let i = 0; i < 5; i++) more.push((await t.request({ method: 'GET', url: '/oauth/authorize?client_id=nobody' })).statusCode);
    assert.deepEqual(more.map((s) => s === 429), [false, false, false, false, true]);
  });
});

describe('migration 0026', () => {
  it('deletes the token, code, session and interaction rows kept in clear, and keeps clients, grants and the server keys', async () => {
    const store = await createTestStore();
    const database = openDatabase({ databaseUrl: store.databaseUrl, dataDir: store.dataDir });
    try {
      await migrateUpTo(database, '0025_daily_counts');
      const models = ['AccessToken', 'RefreshToken', 'AuthorizationCode', 'Session', 'Interaction', 'Client', 'Grant', 'IntakeServerKeys'];
      await database.db.insertInto('oauth_records').values(models.map((model) => ({ model, id: `${model}-id`, payload: '{}' })) as never).execute();
      assert.deepEqual(await migrateUpTo(database, '0026_oauth_hashed_ids'), ['0026_oauth_hashed_ids']);
      const left = await database.db.selectFrom('oauth_records').select(['model', 'redirect_uri']).execute();
      assert.deepEqual(left.map((row) => row.model).sort(), ['Client', 'Grant', 'IntakeServerKeys']);
      assert.ok(left.every((row) => row.redirect_uri === null));
    } finally {
      await database.close();
      await store.cleanup();
    }
  });
});
