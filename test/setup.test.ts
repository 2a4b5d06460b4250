// First-run set-up that only the operator can complete, followed as the README's quick start does it
// on a real server process: `keys create` first, then a stranger tries /setup and fails, and the
// operator completes it with the link the server printed. The log of the whole run holds no token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from './cli.ts';
import { createTestStore, startTestApp, type TestStore } from './helpers.ts';
import net from 'node:net';
import { freePort, startServer, stop } from './processes.ts';
import { DashboardClient } from './dashboard-helpers.ts';
import { loadConfig } from '../src/config.ts';
import { redactUrl } from '../src/http/log-redaction.ts';
import { insecurePublicUrl } from '../src/setup/startup-notices.ts';

const PASSWORD = 'correct horse battery';

/** A browser against a real server: keeps cookies and the last page's CSRF token, never follows redirects. */
class Browser {
  readonly base: string;
  readonly cookies = new Map<string, string>();
  csrf = '';
  constructor(base: string) {
    this.base = base;
  }
  async request(method: string, path: string, form?: Record<string, string>) {
    const headers: Record<string, string> = { accept: 'text/html', cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    let body: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams({ _csrf: this.csrf, ...form }).toString();
    }
    const response = await fetch(`${this.base}${path}`, { method, headers, body, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, value] = pair!.split('=');
      this.cookies.set(name!, value ?? '');
    }
    const text = await response.text();
    const token = /name="_csrf" value="([^"]*)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, location: response.headers.get('location'), text };
  }
}

describe('first-run set-up on a real server, as the quick start goes', () => {
  let store: TestStore;
  let server: Awaited<ReturnType<typeof startServer>>;
  let apiKey: string;
  before(async () => {
    store = await createTestStore();
    // The README's order: an API key first (which creates the owner account without a password).
    const created = await runCli(['keys', 'create', '--email', 'owner@example.com', '--name', 'laptop'], store.env);
    assert.equal(created.code, 0, created.stderr);
    apiKey = created.stdout.trim();
    // debug: successful page reads, such as GET /set-password?token=…, are logged only there.
    server = await startServer({ ...store.env, INTAKE_LOG_LEVEL: 'debug' }, true);
  });
  after(async () => {
    if (server) await stop(server.child);
    await store?.cleanup();
  });

  const printedLink = () => /^Open (http:\/\/localhost:\d+\/setup\?token=\S+) to create the owner account\.$/m.exec(server.stdout())?.[1];

  it('prints a set-up link on stdout, apart from the JSON log', async () => {
    for (let i = 0; i < 100 && !printedLink(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(printedLink(), server.stdout());
    assert.match(server.stdout(), /This server is not set up yet/);
    assert.equal(new URL(printedLink()!).port, new URL(server.base).port, 'the link names the port the server listens on');
  });

  it('refuses set-up to a stranger, without a token, with a made-up one or a used-up form', async () => {
    const stranger = new Browser(server.base);
    const landing = await stranger.request('GET', '/');
    assert.equal(landing.location, '/setup');
    const page = await stranger.request('GET', '/setup');
    assert.equal(page.status, 200);
    assert.match(page.text, /setup-link/);
    assert.doesNotMatch(page.text, /name="password"/, 'no set-up form without a link');
    assert.equal((await stranger.request('GET', '/setup?token=guessed')).status, 403);

    // A CSRF token from another pre-login form, as an attacker would get one.
    await stranger.request('GET', '/set-password?token=x');
    for (const token of [undefined, '', 'guessed', 'x'.repeat(5000)]) {
      const attempt = await stranger.request('POST', '/setup', { ...(token !== undefined && { token }), email: 'intruder@example.com', password: PASSWORD });
      assert.equal(attempt.status, 422, `token ${String(token).slice(0, 20)}`);
      assert.equal(stranger.cookies.get('intake_session'), undefined);
    }
    const login = await stranger.request('POST', '/login', { email: 'intruder@example.com', password: PASSWORD });
    assert.equal(login.status, 401, 'the intruder has no account');
  });

  it('lets the operator set up with the printed link, for the account keys create made, and then closes for good', async () => {
    const link = new URL(printedLink()!);
    const operator = new Browser(server.base);
    const form = await operator.request('GET', `${link.pathname}${link.search}`);
    assert.equal(form.status, 200);
    assert.match(form.text, /name="password"/);
    const done = await operator.request('POST', '/setup', { token: link.searchParams.get('token')!, email: 'owner@example.com', password: PASSWORD });
    assert.equal(done.status, 303, done.text.slice(0, 400));
    assert.equal((await operator.request('GET', '/forms')).status, 200);
    // The account is the one the API key belongs to.
    const forms = await fetch(`${server.base}/api/forms`, { headers: { authorization: `Bearer ${apiKey}` } });
    assert.equal(forms.status, 200);

    const stranger = new Browser(server.base);
    assert.equal((await stranger.request('GET', `${link.pathname}${link.search}`)).location, '/login');
    await stranger.request('GET', '/login');
    const replay = await stranger.request('POST', '/setup', { token: link.searchParams.get('token')!, email: 'intruder@example.com', password: PASSWORD });
    assert.equal(replay.status, 422);
    const fresh = await runCli(['setup-link'], store.env);
    assert.equal(fresh.code, 1);
    assert.match(fresh.stderr, /already set up/);
  });

  it('says where the dashboard is on the next start, once set up', async () => {
    const again = await startServer({ ...store.env, INTAKE_LOG_LEVEL: 'info' }, true);
    try {
      for (let i = 0; i < 100 && !/Intake is ready at/.test(again.stdout()); i++) await new Promise((r) => setTimeout(r, 50));
      assert.match(again.stdout(), new RegExp(`^Intake is ready at http://localhost:${new URL(again.base).port}/$`, 'm'));
      assert.doesNotMatch(again.stdout(), /setup\?token=|create the owner account/);
    } finally {
      await stop(again.child);
    }
  });

  it('writes no token, key or cookie of these flows into its log', async () => {
    const links = await runCli(['users', 'password-link', '--email', 'owner@example.com'], store.env);
    assert.equal(links.code, 0, links.stderr);
    const passwordLink = new URL(links.stdout.trim());
    const browser = new Browser(server.base);
    assert.equal((await browser.request('GET', `${passwordLink.pathname}${passwordLink.search}`)).status, 200);
    assert.equal((await browser.request('POST', '/set-password', { token: passwordLink.searchParams.get('token')!, password: `${PASSWORD}!` })).status, 303);
    await fetch(`${server.base}/api/forms?api_key=${apiKey}`, { headers: { authorization: `Bearer ${apiKey}` } });
    await new Promise((r) => setTimeout(r, 300)); // the log is written asynchronously

    const logLines = server.stdout().split('\n').filter((line) => line.startsWith('{'));
    const requestLines = logLines.filter((line) => line.includes('"req"'));
    assert.ok(requestLines.some((line) => line.includes('/set-password?token=[redacted]')), 'the request is logged, its token not');
    assert.ok(requestLines.some((line) => line.includes('/setup?token=[redacted]')));
    const secrets = {
      setupToken: new URL(printedLink()!).searchParams.get('token')!,
      passwordToken: passwordLink.searchParams.get('token')!,
      apiKey,
      session: browser.cookies.get('intake_session')!,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      assert.ok(secret && secret.length > 10, name);
      assert.ok(!logLines.some((line) => line.includes(secret)), `${name} is in the log`);
    }
  });
});

describe("the terminal of intake serve, as a new operator reads it", () => {
  let store: TestStore;
  let server: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    store = await createTestStore();
    server = await startServer({ ...store.env, INTAKE_LOG_LEVEL: 'info' }, true);
  });
  after(async () => {
    if (server) await stop(server.child);
    await store?.cleanup();
  });
  const lines = () => server.stdout().split('\n').filter((line) => line.trim() !== '');

  it('prints the set-up link once the server is ready, after the start\'s log lines', async () => {
    const at = (pattern: RegExp) => lines().findIndex((line) => pattern.test(line));
    const link = /^Open http:\/\/localhost:\d+\/setup\?token=\S+ to create the owner account\.$/;
    for (let i = 0; i < 100 && at(link) === -1; i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(at(link) > at(/"msg":"Intake is ready"/) && at(/"msg":"Intake is ready"/) > at(/"msg":"Server listening/), server.stdout());
    assert.equal(lines().filter((line) => link.test(line)).length, 1);
  });

  it('logs one line per API request, and successful page reads only at debug', async () => {
    await fetch(`${server.base}/login`);
    assert.equal((await fetch(`${server.base}/api/forms`)).status, 401);
    let apiLine: string | undefined;
    for (let i = 0; i < 100 && !(apiLine = lines().find((line) => line.includes('"/api/forms"'))); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(apiLine, server.stdout());
    const reqId = (JSON.parse(apiLine) as { reqId: string }).reqId;
    assert.deepEqual(lines().filter((line) => line.includes(`"reqId":"${reqId}"`)), [apiLine], 'one line for the request');
    assert.match(apiLine, /"msg":"GET \/api\/forms 401 \d+ ms"/);
    assert.ok(!lines().some((line) => line.includes('"/login"')), 'GET /login (200) is not logged at info');
  });

  it('prints a link to the port the server listens on from setup-link, though PORT is set only in its environment', async () => {
    const link = await runCli(['setup-link'], store.env);
    assert.equal(link.code, 0, link.stderr);
    assert.equal(new URL(link.stdout.trim()).port, new URL(server.base).port);
  });

  it('says in one line, without a stack, that the port is in use and how to choose another', async () => {
    const port = await freePort();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const refused = await runCli(['serve'], { ...store.env, PORT: String(port), HOST: '127.0.0.1', INTAKE_LOG_LEVEL: 'warn', INTAKE_EMBEDDED_WORKER: 'false' });
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr.trim(), `Port ${port} is in use: another program (perhaps another Intake) listens on it. Stop that program, or start on another port: PORT=${port + 1} npm start`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('set-up closes when the CLI gives an account a way in', () => {
  it('closes after keys create --password (read from stdin), and that password logs in', async () => {
    const store = await createTestStore();
    try {
      const link = await runCli(['setup-link'], store.env);
      assert.equal(link.code, 0, link.stderr);
      assert.match(link.stdout, /^http:\/\/\S+\/setup\?token=[\w-]{40,}\n$/);
      const created = await runCli(['keys', 'create', '--email', 'ops@example.com', '--name', 'ci', '--password'], store.env, `${PASSWORD}\n`);
      assert.equal(created.code, 0, created.stderr);
      assert.match(created.stdout.trim(), /^\S+$/, 'only the key on stdout');
      assert.equal((await runCli(['setup-link'], store.env)).code, 1);
      const weak = await runCli(['keys', 'create', '--email', 'other@example.com', '--name', 'x', '--password', '--new-account'], store.env, 'short\n');
      assert.equal(weak.code, 1);
      assert.match(weak.stderr, /at least 10 characters/);
    } finally {
      await store.cleanup();
    }
  });

  it('closes after users password-link; a set-up link that worked until then no longer does', async () => {
    const t = await startTestApp();
    try {
      const c = new DashboardClient(t);
      const token = await c.setupToken();
      assert.equal((await c.get(`/setup?token=${token}`)).statusCode, 200);
      await t.services.dashboard.passwordLink('first@example.com', true);
      assert.equal((await c.get(`/setup?token=${token}`)).headers.location, '/login');
      assert.equal(await t.services.setup.newToken(), null);
      assert.ok(await t.services.setup.isOperator((await t.services.accounts.find('first@example.com'))!.id));
    } finally {
      await t.close();
    }
  });
});

describe('per-account log-in limit', () => {
  it('limits guesses at one account from many addresses, and not other accounts', async () => {
    const t = await startTestApp({ INTAKE_LOGIN_ACCOUNT_RATE_LIMIT: '3' });
    try {
      await new DashboardClient(t).setUp('victim@example.com', PASSWORD);
      const attempt = async (email: string, password: string, ip: string) => {
        const c = new DashboardClient(t);
        await c.get('/login');
        const body = new URLSearchParams({ _csrf: c.csrf, email, password }).toString();
        return t.app.inject({
          method: 'POST', url: '/login', remoteAddress: ip, payload: body,
          headers: { cookie: c.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        });
      };
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await attempt(i % 2 ? 'VICTIM@example.com' : 'victim@example.com', `guess ${i} xxxxxxxx`, `203.0.113.${i + 1}`)).statusCode);
      assert.deepEqual(codes, [401, 401, 401, 429]);
      const limited = await attempt('victim@example.com', PASSWORD, '203.0.113.99');
      assert.equal(limited.statusCode, 429, 'the right password waits too');
      assert.ok(limited.headers['retry-after']);
      assert.equal((await attempt('someone@example.com', PASSWORD, '203.0.113.99')).statusCode, 401, 'another account is not limited');
    } finally {
      await t.close();
    }
  });
});

describe('what the server says and logs at start', () => {
  it('warns of an http public URL on a real host only', () => {
    const warns = (publicUrl: string | null) => insecurePublicUrl(loadConfig({ ...(publicUrl && { INTAKE_PUBLIC_URL: publicUrl }) }));
    assert.equal(warns('http://forms.example.com'), true);
    assert.equal(warns('http://203.0.113.5:3000'), true);
    for (const quiet of [null, 'https://forms.example.com', 'http://localhost:3000', 'http://127.0.0.1', 'http://[::1]:3000', 'http://intake.localhost']) {
      assert.equal(warns(quiet), false, String(quiet));
    }
  });

  it('redacts credential-looking query values of any URL, keeping the rest as sent', () => {
    assert.equal(redactUrl('/set-password?token=abc'), '/set-password?token=[redacted]');
    assert.equal(redactUrl('/forms/1/inbox?filter=spam&page=2'), '/forms/1/inbox?filter=spam&page=2');
    assert.equal(redactUrl('/cb?code=xyz&state=s1&lang=de'), '/cb?code=[redacted]&state=[redacted]&lang=de');
    assert.equal(redactUrl('/x?%74oken=abc&%zz=1&flag'), '/x?%74oken=[redacted]&%zz=1&flag');
    assert.equal(redactUrl('/x?api_key=k&API-KEY=k2'), '/x?api_key=[redacted]&API-KEY=[redacted]');
    const long = `/x?${'a=1&'.repeat(20_000)}token=t`;
    assert.ok(redactUrl(long).endsWith('token=[redacted]'));
  });
});
