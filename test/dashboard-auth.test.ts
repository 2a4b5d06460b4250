// Dashboard accounts and sessions through the real app: first-run set-up, log in and out, password
// links, sign-up only when open, CSRF, the login rate limit, and the cookie never reaching /api.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RELAXED_ENV, startTestApp, type TestApp } from './helpers.ts';
import { runCli } from './cli.ts';
import { accountStore } from '../src/accounts/store.ts';
import { dashboardService, SESSION_DAYS } from '../src/dashboard/service.ts';
import { dashboardStore } from '../src/dashboard/store.ts';
import { DashboardClient } from './dashboard-helpers.ts';

const PASSWORD = 'correct horse battery';

describe('dashboard accounts and sessions', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('leads a new server to set-up, creates the owner once, and sets a safe session cookie', async () => {
    const c = new DashboardClient(t);
    const first = await c.get('/');
    assert.equal(first.statusCode, 303);
    assert.equal(first.headers.location, '/setup');
    assert.equal((await c.get('/forms')).headers.location, '/setup');

    const token = await c.setupToken();
    await c.get(`/setup?token=${token}`);
    const weak = await c.post('/setup', { token, email: 'owner@example.com', password: 'short' });
    assert.equal(weak.statusCode, 422);
    assert.match(weak.body, /at least 10 characters/);

    const done = await c.post('/setup', { token, email: 'owner@example.com', password: PASSWORD });
    assert.equal(done.statusCode, 303);
    const cookie = String(done.headers['set-cookie']);
    assert.match(cookie, /intake_session=[^;]+;.*HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.match(cookie, /Max-Age=\d+/i);
    assert.doesNotMatch(cookie, /Secure/, 'plain HTTP without a public https URL: no Secure flag');
    assert.equal((await c.get('/forms')).statusCode, 200);

    // A second visitor finds the server set up.
    const other = new DashboardClient(t);
    assert.equal((await other.get('/setup')).headers.location, '/login');
    await other.get('/login');
    const takeover = await other.post('/setup', { token, email: 'intruder@example.com', password: PASSWORD });
    assert.equal(takeover.statusCode, 422);
    assert.equal(await t.services.accounts.find('intruder@example.com'), null);
  });

  it('logs in, refuses a wrong password without saying which part was wrong, and logs out server-side', async () => {
    const c = new DashboardClient(t);
    const wrong = await c.logIn('owner@example.com', 'not the password');
    assert.equal(wrong.statusCode, 401);
    assert.match(wrong.body, /do not match an account/);
    const unknown = await c.logIn('nobody@example.com', PASSWORD);
    assert.equal(unknown.statusCode, 401);
    assert.match(unknown.body, /do not match an account/);

    const ok = await c.logIn('OWNER@example.com', PASSWORD);
    assert.equal(ok.statusCode, 303);
    const session = c.cookies.get('intake_session');
    assert.ok(session);
    await c.get('/forms');
    const out = await c.post('/logout');
    assert.equal(out.headers.location, '/login');
    // The old cookie no longer opens anything, even when replayed.
    const replay = await t.request({ method: 'GET', url: '/forms', headers: { cookie: `intake_session=${session}` } });
    assert.equal(replay.statusCode, 303);
  });

  it('changes the password, ending the other sessions', async () => {
    const a = new DashboardClient(t);
    const b = new DashboardClient(t);
    await a.logIn('owner@example.com', PASSWORD);
    await b.logIn('owner@example.com', PASSWORD);
    await a.get('/account');
    const wrong = await a.post('/account/password', { current_password: 'nope nope nope', password: 'a brand new password' });
    assert.equal(wrong.statusCode, 422);
    const changed = await a.post('/account/password', { current_password: PASSWORD, password: 'a brand new password' });
    assert.equal(changed.headers.location, '/account?done=password');
    assert.equal((await a.get('/forms')).statusCode, 200);
    assert.equal((await b.get('/forms')).statusCode, 303, 'the other session ended');
    await a.get('/account');
    await a.post('/account/password', { current_password: 'a brand new password', password: PASSWORD });
  });

  it('sets a password through a one-time link from the CLI service, for an account made before the dashboard', async () => {
    await t.services.accounts.createKey({ email: 'cli@example.com', name: 'old key' });
    const link = await t.services.dashboard.passwordLink('cli@example.com', false);
    const c = new DashboardClient(t);
    assert.equal((await c.get(`/set-password?token=${link.token}`)).statusCode, 200);
    const set = await c.post('/set-password', { token: link.token, password: 'cli owner password' });
    assert.equal(set.statusCode, 303);
    assert.equal((await c.get('/forms')).statusCode, 200);

    const again = new DashboardClient(t);
    assert.equal((await again.get(`/set-password?token=${link.token}`)).statusCode, 410);
    const reuse = await again.post('/set-password', { token: link.token, password: 'somebody else pw' });
    assert.equal(reuse.statusCode, 422);
    assert.match(reuse.body, /expired or was used/);
    await assert.rejects(t.services.dashboard.passwordLink('missing@example.com', false), /No account/);
  });

  it('lets sessions expire after 14 days', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const service = dashboardService({ store: dashboardStore(t.database.db), accounts: accountStore(t.database.db), setup: t.services.setup, clock: () => now });
    const { token } = await service.logIn('owner@example.com', PASSWORD);
    now = new Date(now.getTime() + (SESSION_DAYS * 86_400_000) - 1000);
    assert.ok(await service.session(token));
    now = new Date(now.getTime() + 2000);
    assert.equal(await service.session(token), null);
    assert.equal(await service.session('x'.repeat(5000)), null);
  });

  it('refuses state-changing requests without the CSRF token or from another site', async () => {
    const c = new DashboardClient(t);
    await c.logIn('owner@example.com', PASSWORD);
    await c.get('/integrations');
    const keysBefore = (await t.services.accounts.listKeys('owner@example.com')).length;
    const missing = await c.post('/integrations/keys', { _csrf: null, name: 'no token' });
    assert.equal(missing.statusCode, 403);
    const forged = await c.post('/integrations/keys', { _csrf: 'forged-token-forged-token', name: 'forged' });
    assert.equal(forged.statusCode, 403);
    const crossSite = await c.post('/integrations/keys', { name: 'cross' }, { origin: 'https://evil.example' });
    assert.equal(crossSite.statusCode, 403);
    const fetchMeta = await c.post('/integrations/keys', { name: 'cross' }, { 'sec-fetch-site': 'cross-site' });
    assert.equal(fetchMeta.statusCode, 403);
    const logout = await c.post('/logout', { _csrf: null });
    assert.equal(logout.statusCode, 403, 'even log-out needs the token');
    assert.equal((await t.services.accounts.listKeys('owner@example.com')).length, keysBefore);
    const good = await c.post('/integrations/keys', { name: 'real' }, { origin: 'http://localhost:80' });
    assert.equal(good.statusCode, 303);
  });

  it('never accepts the session cookie on /api/* and never sets it there', async () => {
    const c = new DashboardClient(t);
    await c.logIn('owner@example.com', PASSWORD);
    const api = await t.request({ method: 'GET', url: '/api/forms', headers: { cookie: c.cookieHeader() } });
    assert.equal(api.statusCode, 401);
    assert.equal(api.headers['set-cookie'], undefined);
    const account = await t.request({ method: 'GET', url: '/api/account', headers: { cookie: c.cookieHeader() } });
    assert.equal(account.statusCode, 401);
  });

  it('sends security headers: CSP without inline scripts, no framing, no caching of pages', async () => {
    const c = new DashboardClient(t);
    const page = await c.get('/login');
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers['referrer-policy'], 'same-origin');
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.doesNotMatch(page.body, /<script>/, 'no inline script on any page');
    const asset = await c.get('/assets/dashboard.js');
    assert.equal(asset.statusCode, 200);
    assert.match(String(asset.headers['content-type']), /javascript/);
    assert.equal((await c.get('/assets/..%2Fservice.ts')).statusCode, 404);
  });

  it('answers a browser at an unknown address with a page, and API clients with the JSON error', async () => {
    const page = await t.request({ method: 'GET', url: '/no-such-page?x=1', headers: { accept: 'text/html,application/xhtml+xml' } });
    assert.equal(page.statusCode, 404);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<h1>Not found<\/h1>/);
    assert.ok(page.headers['content-security-policy'], 'the page carries the dashboard\'s security headers');
    const json = await t.request({ method: 'GET', url: '/no-such-page' });
    assert.equal(json.statusCode, 404);
    assert.equal(json.json().error.code, 'not_found');
    for (const url of ['/api/no-such-route', '/mcp/x']) {
      const api = await t.request({ method: 'GET', url, headers: { accept: 'text/html' } });
      assert.equal(api.statusCode, 404, url);
      assert.equal(api.json().error.code, 'not_found', url);
    }
    const post = await t.request({ method: 'POST', url: '/no-such-page', headers: { accept: 'text/html' }, payload: {} });
    assert.equal(post.json().error.code, 'not_found');
  });
});

describe('dashboard sign-up and login rate limit', () => {
  it('offers sign-up only when INTAKE_SIGNUP=open', async () => {
    const closed = await startTestApp();
    try {
      const c = new DashboardClient(closed);
      await c.setUp();
      assert.equal((await c.get('/signup')).headers.location, '/login');
    } finally {
      await closed.close();
    }
    const open = await startTestApp({ INTAKE_SIGNUP: 'open' });
    try {
      await new DashboardClient(open).setUp();
      const c = new DashboardClient(open);
      assert.equal((await c.get('/signup')).statusCode, 200);
      const made = await c.post('/signup', { email: 'new@example.com', password: PASSWORD });
      assert.equal(made.statusCode, 303);
      assert.equal((await c.get('/forms')).statusCode, 200);
      const taken = new DashboardClient(open);
      await taken.get('/signup');
      assert.equal((await taken.post('/signup', { email: 'new@example.com', password: PASSWORD })).statusCode, 422);
    } finally {
      await open.close();
    }
  });

  it('limits log-in attempts per client address', async () => {
    const t = await startTestApp({ INTAKE_LOGIN_RATE_LIMIT: '3' });
    try {
      await new DashboardClient(t).setUp();
      const c = new DashboardClient(t);
      await c.get('/login');
      // The set-up above was the first attempt of this address.
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await c.post('/login', { email: 'owner@example.com', password: `guess number ${i}` })).statusCode);
      assert.deepEqual(codes, [401, 401, 429]);
      assert.match(c.last?.body ?? '', /Too many attempts/);
      assert.ok(c.last?.headers['retry-after']);
      // Even the right password waits for the window.
      assert.equal((await c.post('/login', { email: 'owner@example.com', password: PASSWORD })).statusCode, 429);
      // Pages other than attempts stay reachable.
      assert.equal((await c.get('/login')).statusCode, 200);
    } finally {
      await t.close();
    }
  });
});

describe('intake users create and password-link', () => {
  it('prints one-time set-password links that open the dashboard', async () => {
    const t = await startTestApp({ INTAKE_PUBLIC_URL: 'https://forms.example.com' });
    const env = { ...RELAXED_ENV, INTAKE_DATA_DIR: t.config.dataDir, ...(t.config.databaseUrl && { DATABASE_URL: t.config.databaseUrl, INTAKE_PG_JOBS_SCHEMA: t.config.pipeline.jobsSchema }), INTAKE_PUBLIC_URL: 'https://forms.example.com' };
    try {
      const created = await runCli(['users', 'create', '--email', 'New@Example.com'], env);
      assert.equal(created.code, 0, created.stderr);
      const link = new URL(created.stdout.trim());
      assert.equal(`${link.origin}${link.pathname}`, 'https://forms.example.com/set-password');
      assert.match(created.stderr, /works once, within 24 hours/);
      const c = new DashboardClient(t);
      await c.get(`/set-password${link.search}`);
      assert.equal((await c.post('/set-password', { token: link.searchParams.get('token') ?? '', password: PASSWORD })).statusCode, 303);
      assert.match(String(c.last?.headers['set-cookie']), /Secure/, 'behind an https public URL the cookie is Secure');

      const again = await runCli(['users', 'password-link', '--email', 'new@example.com'], env);
      assert.equal(again.code, 0, again.stderr);
      assert.notEqual(again.stdout, created.stdout);
      const missing = await runCli(['users', 'password-link', '--email', 'ghost@example.com'], env);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /No account with email ghost@example.com/);
      assert.equal((await runCli(['users', 'create'], env)).code, 2);
    } finally {
      await t.close();
    }
  });
});
