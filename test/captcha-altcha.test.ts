// ALTCHA on the JSON endpoint, end to end: the challenge route, a solution made with altcha-lib's own
// solver, and each way a solution must be refused (none, wrong, expired, replayed, another form's,
// tampered), with nothing stored. The proof of work is made cheap (cost 1, a few counters) so the
// solver takes milliseconds; the checks are the same at any cost.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { captchaService, captchaStore } from '../src/captcha/index.ts';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

const CHEAP = { INTAKE_ALTCHA_COST: '1', INTAKE_ALTCHA_MAX_COUNTER: '20' };

async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  assert.ok(solution, 'the solver found no solution');
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString('base64');
}

describe('ALTCHA', () => {
  let t: TestApp;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  let other: Awaited<ReturnType<typeof createForm>>;
  before(async () => {
    t = await startTestApp(CHEAP);
    key = await t.createKey();
    form = await createForm(t, key, { captcha_provider: 'altcha' });
    other = await createForm(t, key, { captcha_provider: 'altcha' });
  });
  after(() => t.close());

  const challengeOf = async (endpoint: string): Promise<Challenge> => {
    const response = await t.request({ method: 'GET', url: `${pathOf(endpoint)}/captcha` });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['cache-control'], 'no-store');
    return response.json();
  };
  const submit = (payload: Record<string, unknown>, endpoint = form.endpoint) =>
    t.request({ method: 'POST', url: pathOf(endpoint), headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  const stored = async () =>
    (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions?filter=all&page_size=100`, headers: bearer(key) })).json().meta.total_count as number;
  const refused = async (payload: Record<string, unknown>, reason: RegExp) => {
    const before = await stored();
    const response = await submit(payload);
    assert.equal(response.statusCode, 403, response.body);
    assert.equal(response.json().error.code, 'captcha_failed');
    assert.match(response.json().error.message, reason);
    assert.equal(await stored(), before, 'nothing stored');
  };
  const DATA = { name: 'Ada', email: 'ada@example.com' };

  it('discovery names the provider, the member and the challenge URL, and the widget served by Intake', async () => {
    const doc = (await t.request({ method: 'GET', url: pathOf(form.endpoint), headers: { accept: 'application/json' } })).json();
    assert.deepEqual(doc.captcha, {
      provider: 'altcha', field: 'altcha', challenge_url: `${form.endpoint}/captcha`, widget_script: form.endpoint.replace(/\/api\/.*$/, '/assets/altcha.js'),
    });
    const script = await t.request({ method: 'GET', url: '/assets/altcha.js' });
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /^text\/javascript/);
    assert.match(script.body, /altcha-widget/);
  });

  it('answers a challenge bound to the form, expiring after the TTL, and accepts its solution once', async () => {
    const challenge = await challengeOf(form.endpoint);
    assert.equal(challenge.parameters.algorithm, 'PBKDF2/SHA-256');
    assert.equal(challenge.parameters.data?.form, form.id);
    const ttl = (challenge.parameters.expiresAt ?? 0) - Date.now() / 1000;
    assert.ok(ttl > 590 && ttl <= 600, `expires in ${ttl} s`);
    const altcha = await solve(challenge);

    const response = await submit({ ...DATA, altcha });
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(response.json().data, DATA, 'the solution is not data');

    await refused({ ...DATA, altcha }, /already used/);
  });

  it('refuses a submission without a solution, or with an empty or non-string one', async () => {
    await refused(DATA, /needs a CAPTCHA solution in the member "altcha"/);
    await refused({ ...DATA, altcha: '' }, /needs a CAPTCHA solution/);
    await refused({ ...DATA, altcha: 42 }, /needs a CAPTCHA solution/);
  });

  it("refuses a wrong solution, the widget's test-mode payload, garbage, and a challenge whose signed data was changed", async () => {
    const challenge = await challengeOf(form.endpoint);
    const solution = await solveChallenge({ challenge, deriveKey });
    assert.ok(solution);
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
    const wrongKey = solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    await refused({ ...DATA, altcha: encode({ challenge, solution: { ...solution, derivedKey: wrongKey } }) }, /solution is wrong/);
    await refused({ ...DATA, altcha: encode({ challenge: null, solution: null, test: true }) }, /not one the widget sends/);
    await refused({ ...DATA, altcha: 'not base64 json' }, /not one the widget sends/);
    const forged = { ...challenge, parameters: { ...challenge.parameters, data: { form: form.id, extra: 1 } } };
    await refused({ ...DATA, altcha: encode({ challenge: forged, solution }) }, /not issued by this server/);
  });

  it("refuses another form's solved challenge", async () => {
    await refused({ ...DATA, altcha: await solve(await challengeOf(other.endpoint)) }, /another form/);
  });

  it('refuses a solution whose challenge expired', async () => {
    // The same server key (from the database), a clock 11 minutes behind: its challenge expired a minute ago.
    const past = captchaService({ store: captchaStore(t.database.db, t.secrets), config: t.config.captcha, clock: () => new Date(Date.now() - 660_000) });
    const [, , segment, , slug] = pathOf(form.endpoint).split('/');
    const found = await t.services.forms.resolveEndpoint(segment!, slug!);
    assert.ok(found);
    const challenge = await past.challenge(found.form);
    assert.ok(challenge);
    await refused({ ...DATA, altcha: await solve(challenge) }, /expired/);
  });

  it('forgets expired solutions when it purges', async () => {
    const store = captchaStore(t.database.db, t.secrets);
    assert.equal(await store.spend('old-nonce', '2020-01-01T00:00:00.000Z'), true);
    assert.equal(await store.spend('old-nonce', '2020-01-01T00:00:00.000Z'), false, 'a second use is refused by the key');
    assert.ok(await store.purgeExpired(new Date().toISOString()) >= 1);
    assert.equal(await store.spend('old-nonce', '2020-01-01T00:00:00.000Z'), true);
  });

  it('has no challenge for a form without ALTCHA, which keeps taking submissions as before', async () => {
    const plain = await createForm(t, key);
    const challenge = await t.request({ method: 'GET', url: `${pathOf(plain.endpoint)}/captcha` });
    assert.equal(challenge.statusCode, 404);
    const doc = (await t.request({ method: 'GET', url: pathOf(plain.endpoint), headers: { accept: 'application/json' } })).json();
    assert.equal(doc.captcha, undefined);
    const response = await submit(DATA, plain.endpoint);
    assert.equal(response.statusCode, 201, response.body);
  });
});
