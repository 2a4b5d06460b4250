import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, createTestStore, prepareStore, type TestStore, startTestApp, type TestApp } from './helpers.ts';
import { runCli } from './cli.ts';

describe('account API and keys', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ INTAKE_API_RATE_LIMIT: '5', INTAKE_FREE_AI_CREDITS: '7', INTAKE_PRO_MONTHLY_AI_CREDITS: '9' });
  });
  after(() => t.close());

  it('shows plan, submission allowance and credits', async () => {
    const key = await t.createKey('acct@example.com');
    const response = await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      email: 'acct@example.com',
      reply_to_email: 'acct@example.com',
      plan: 'free',
      language: 'en',
      submissions: { total: 0, limit: 5000 },
      credits: { period: 'lifetime', allowance: 7, used: 0, remaining: 7, metered: false, metered_usage: 0 },
    });
    assert.equal(response.headers['x-service-credits-remaining'], '7');
  });

  it('meters a pro owner per month and shows it in the headers', async () => {
    const key = await t.createKey('pro@example.com');
    await t.database.db.updateTable('accounts').set({ plan: 'pro' }).where('email', '=', 'pro@example.com').execute();
    const account = await t.database.db.selectFrom('accounts').select('id').where('email', '=', 'pro@example.com').executeTakeFirstOrThrow();
    const period = new Date().toISOString().slice(0, 7);
    await t.database.db.insertInto('credit_usage').values({ account_id: account.id, period, used: 11 }).execute();
    const response = await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) });
    assert.deepEqual(response.json().credits, { period, allowance: 9, used: 11, remaining: 0, metered: true, metered_usage: 2 });
    assert.equal(response.headers['x-service-credits-remaining'], '0');
    assert.equal(response.headers['x-service-metered'], 'true');
  });

  it('shares the per-key management budget across forms, submissions and account routes', async () => {
    const key = await t.createKey();
    const other = await t.createKey();
    const urls = ['/api/forms', '/api/account', '/api/forms/00000000-0000-0000-0000-000000000000/submissions', '/api/forms', '/api/account'];
    for (const url of urls) assert.notEqual((await t.request({ method: 'GET', url, headers: bearer(key) })).statusCode, 429, url);
    for (const url of ['/api/forms', '/api/account', '/api/forms/00000000-0000-0000-0000-000000000000/submissions']) {
      const limited = await t.request({ method: 'GET', url, headers: bearer(key) });
      assert.equal(limited.statusCode, 429, url);
      assert.equal(limited.json().error.code, 'rate_limited');
      assert.ok(limited.json().error.retry_after >= 1);
    }
    assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(other) })).statusCode, 200, 'each key has its own budget');
  });

  it('counts made-up keys against their IP, so a new invented token each time is still limited', async () => {
    const remoteAddress = '203.0.113.7';
    const invented = () => bearer(`ik_${crypto.randomUUID().replaceAll('-', '')}`);
    for (let i = 0; i < 5; i++) {
      assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: invented(), remoteAddress })).statusCode, 401);
    }
    const limited = await t.request({ method: 'GET', url: '/api/forms', headers: invented(), remoteAddress });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().error.code, 'rate_limited');
    // A valid key from the same address keeps its own budget.
    const key = await t.createKey();
    assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key), remoteAddress })).statusCode, 200);
  });
});

// Each CLI command is a process that loads the app (a second or more): the tests run side by side, each
// on accounts of its own, and a test's commands that do not depend on one another run at once. The
// tests that need a server with one account or none have a store of their own.
describe('CLI', { concurrency: true }, () => {
  let store: TestStore;
  before(async () => {
    store = await createTestStore();
    await prepareStore(store); // migrated once, before the commands run side by side
  });
  after(() => store.cleanup());

  it('creates a key (only the key on stdout), lists it, records its use and revokes it', async () => {
    // A new database: the first command also migrates it, and still writes only the key to stdout.
    const own = await createTestStore();
    try {
      const created = await runCli(['keys', 'create', '--email', 'Cli@Example.com', '--name', 'laptop'], own.env);
      assert.equal(created.code, 0, created.stderr);
      const key = created.stdout.trim();
      assert.match(key, /^ik_[A-Za-z0-9_-]{43}$/);
      assert.equal(created.stdout, `${key}\n`);

      const t = await startTestApp(own.env);
      try {
        assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) })).statusCode, 200);
        const listed = await runCli(['keys', 'list', '--email', 'cli@example.com'], own.env);
        assert.equal(listed.code, 0, listed.stderr);
        const [line] = listed.stdout.trim().split('\n');
        assert.match(line ?? '', /cli@example\.com {2}"laptop"/);
        assert.doesNotMatch(line ?? '', /last used never/);
        assert.equal(listed.stdout.includes(key), false, 'the full key is never shown again');
        const id = (line ?? '').split(' ')[0] as string;

        const revoked = await runCli(['keys', 'revoke', id], own.env);
        assert.equal(revoked.code, 0, revoked.stderr);
        const refused = await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) });
        assert.equal(refused.statusCode, 401);
        assert.equal(refused.body, 'Unauthorized');
        const [all, again] = await Promise.all([runCli(['keys', 'list'], own.env), runCli(['keys', 'revoke', id], own.env)]);
        assert.match(all.stdout, /revoked/);
        assert.equal(again.code, 1, 'revoking twice says so');
      } finally {
        await t.close();
      }
    } finally {
      await own.cleanup();
    }
  });

  it('creates a read-scoped key with --scope read, and refuses other scopes', async () => {
    const created = await runCli(['keys', 'create', '--email', 'scope@example.com', '--name', 'agent', '--scope', 'read', '--new-account'], store.env);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /Created read-scope API key/);
    const [listed, bad] = await Promise.all([
      runCli(['keys', 'list', '--email', 'scope@example.com'], store.env),
      runCli(['keys', 'create', '--email', 'scope@example.com', '--name', 'x', '--scope', 'admin'], store.env),
    ]);
    assert.match(listed.stdout, /"agent"  read  /);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /scope is full or read/);
  });

  it('sets a plan, and refuses unknown accounts and plans', async () => {
    const t = await startTestApp(store.env);
    try {
      const key = await t.createKey('plan@example.com');
      const [ok, unknown, badPlan] = await Promise.all([
        runCli(['users', 'set-plan', '--email', 'plan@example.com', '--plan', 'pro'], store.env),
        runCli(['users', 'set-plan', '--email', 'nobody@example.com', '--plan', 'pro'], store.env),
        runCli(['users', 'set-plan', '--email', 'plan@example.com', '--plan', 'gold'], store.env),
      ]);
      assert.equal(ok.code, 0, ok.stderr);
      const account = await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) });
      assert.equal(account.json().plan, 'pro');
      assert.equal(account.json().submissions.limit, null);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no account/);
      assert.equal(badPlan.code, 2);
      assert.match(badPlan.stderr, /--plan must be free or pro/);
    } finally {
      await t.close();
    }
  });

  it('sets the language submissions are translated into, and shows plan, language and credits', async () => {
    await prepareStore(store, ['lang@example.com']);
    const ok = await runCli(['users', 'set-language', '--email', 'lang@example.com', '--language', 'fr'], store.env);
    assert.equal(ok.code, 0, ok.stderr);
    const [shown, bad, unknown] = await Promise.all([
      runCli(['users', 'show', '--email', 'lang@example.com'], store.env),
      runCli(['users', 'set-language', '--email', 'lang@example.com', '--language', 'French'], store.env),
      runCli(['users', 'show', '--email', 'nobody@example.com'], store.env),
    ]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /lang@example\.com {2}plan free {2}language fr {2}submissions 0/);
    assert.match(shown.stdout, /credits lifetime: 0 used of \d+, \d+ remaining/);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /not an ISO 639-1 language code/);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no account/);
  });

  it('explains usage errors and bad configuration, naming the variable', async () => {
    const [missing, unknown, badPort, badUrl] = await Promise.all([
      runCli(['keys', 'create', '--email', 'x@example.com'], store.env),
      runCli(['frobnicate'], store.env),
      runCli(['migrate'], { ...store.env, PORT: 'eighty' }),
      runCli(['migrate'], { ...store.env, DATABASE_URL: 'mysql://localhost/db' }),
    ]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--name is required/);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Usage: intake/);
    assert.equal(badPort.code, 1);
    assert.match(badPort.stderr, /Configuration error: PORT: expected a whole number/);
    assert.match(badUrl.stderr, /DATABASE_URL: must start with postgres:\/\/ or postgresql:\/\//);
  });

  it('refuses a second account unless --new-account is given, naming the flag and the account there is', async () => {
    const own = await createTestStore();
    try {
      const first = await runCli(['keys', 'create', '--email', 'first@example.com', '--name', 'laptop'], own.env);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stderr, /for the new account first@example\.com/);
      // Neither of these two adds an account, so whichever runs first, the other finds only first@.
      const [again, typo] = await Promise.all([
        runCli(['keys', 'create', '--email', 'First@example.com', '--name', 'phone'], own.env),
        runCli(['keys', 'create', '--email', 'frist@example.com', '--name', 'x'], own.env),
      ]);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr, /for the account first@example\.com\./);
      assert.equal(typo.code, 1);
      assert.equal(typo.stdout, '', 'no key');
      assert.match(typo.stderr, /No account has the email frist@example\.com; this server's account is first@example\.com/);
      assert.match(typo.stderr, /--new-account/);
      const [listed, second] = await Promise.all([
        runCli(['keys', 'list'], own.env),
        runCli(['keys', 'create', '--email', 'second@example.com', '--name', 'x', '--new-account'], own.env),
      ]);
      assert.doesNotMatch(listed.stdout, /frist/, 'nothing was created');
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stderr, /for the new account second@example\.com/);
    } finally {
      await own.cleanup();
    }
  });

  it('creates the owner account once for several keys', async () => {
    await runCli(['keys', 'create', '--email', 'twice@example.com', '--name', 'a', '--new-account'], store.env);
    await runCli(['keys', 'create', '--email', 'twice@example.com', '--name', 'b'], store.env);
    const [listed, t] = await Promise.all([runCli(['keys', 'list', '--email', 'twice@example.com'], store.env), startTestApp(store.env)]);
    try {
      const keyIds = new Set(listed.stdout.trim().split('\n').map((l) => l.split(/\s+/)[0]));
      assert.equal(keyIds.size, 2, 'two keys');
      const key = await t.createKey('twice@example.com');
      await createForm(t, key);
      const rows = await t.database.db.selectFrom('accounts').select('id').where('email', '=', 'twice@example.com').execute();
      assert.equal(rows.length, 1);
    } finally {
      await t.close();
    }
  });
});
