// An Idempotency-Key replays its first answer only to the same request: another body under the same
// key (a guessed order number, say) gets 422 and nothing of the first submission.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

describe('Idempotency-Key bound to its request', () => {
  let t: TestApp;
  let key: string;
  let url: string;
  let formId: string;
  before(async () => {
    t = await startTestApp();
    key = await t.createKey();
    const form = await createForm(t, key);
    url = pathOf(form.endpoint);
    formId = form.id;
  });
  after(() => t.close());

  const submit = (payload: unknown, idempotencyKey: string) =>
    t.request({ method: 'POST', url, headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey }, payload: JSON.stringify(payload) });
  const storedCount = async () =>
    (await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions?filter=all&page_size=100`, headers: bearer(key) })).json().meta.total_count as number;

  it('refuses the same key with another body with 422 idempotency_key_reused, and shows none of the first', async () => {
    const victim = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'My card ends 4242, please call me.' };
    const first = await submit(victim, 'order-1001');
    assert.equal(first.statusCode, 201);
    const before = await storedCount();

    const attacker = await submit({ name: 'Mallory', email: 'mallory@example.com' }, 'order-1001');
    assert.equal(attacker.statusCode, 422);
    assert.equal(attacker.json().error.code, 'idempotency_key_reused');
    for (const secret of [first.json().id, 'ada@example.com', 'Lovelace', '4242']) assert.ok(!attacker.body.includes(secret), `reply leaks ${secret}`);
    assert.equal(await storedCount(), before, 'nothing stored for the refused request');
  });

  it('replays the first answer to the same data, whatever the order of its fields', async () => {
    const first = await submit({ name: 'Bo', email: 'bo@example.com', message: 'hi' }, 'order-2');
    const again = await submit({ message: 'hi', email: 'bo@example.com', name: 'Bo' }, 'order-2');
    assert.equal(first.statusCode, 201);
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json(), first.json());
  });

  it('refuses concurrent requests with one key and different bodies, storing exactly one', async () => {
    const before = await storedCount();
    const answers = await Promise.all(['one', 'two', 'three'].map((message) => submit({ name: 'Cy', email: 'cy@example.com', message }, 'order-3')));
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [201, 422, 422]);
    assert.equal(await storedCount(), before + 1);
  });

  it('frees a key after 24 hours: the same key then starts a new submission and never shows the old one', async () => {
    const old = await submit({ name: 'Di', email: 'di@example.com', message: 'old' }, 'order-4');
    const dayAndAHourAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
    await t.database.db.updateTable('submissions').set({ created_at: dayAndAHourAgo }).where('id', '=', old.json().id).execute();

    const fresh = await submit({ name: 'Ed', email: 'ed@example.com', message: 'new' }, 'order-4');
    assert.equal(fresh.statusCode, 201);
    assert.notEqual(fresh.json().id, old.json().id);
    const replay = await submit({ name: 'Ed', email: 'ed@example.com', message: 'new' }, 'order-4');
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.json().id, fresh.json().id);
    const kept = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions/${old.json().id}`, headers: bearer(key) });
    assert.equal(kept.json().data.message, 'old', 'the old submission itself is kept');
  });

  it('stores a hash of the request beside the key, not a second copy of it', async () => {
    const first = await submit({ name: 'Fa', email: 'fa@example.com' }, 'order-5');
    assert.equal(first.statusCode, 201);
    const rows = await t.database.db.selectFrom('submissions').select(['idempotency_key', 'idempotency_hash']).where('id', '=', first.json().id).execute();
    assert.equal(rows[0]?.idempotency_key, 'order-5');
    assert.match(rows[0]?.idempotency_hash ?? '', /^[A-Za-z0-9_-]{43}$/);
  });
});
