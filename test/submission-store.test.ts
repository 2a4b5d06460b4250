import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { submissionStore, type NewSubmission } from '../src/submissions/store.ts';
import { batchStatementsFor } from '../src/submissions/batch-statements.ts';
import { createForm, startTestApp, type TestApp } from './helpers.ts';

describe('submission store', () => {
  let t: TestApp;
  let formId: string;
  let accountId: string;
  before(async () => {
    t = await startTestApp();
    const key = await t.createKey('store@example.com');
    formId = (await createForm(t, key)).id;
    accountId = (await t.database.db.selectFrom('accounts').select('id').where('email', '=', 'store@example.com').executeTakeFirstOrThrow()).id;
  });
  after(() => t.close());

  const item = (overrides: Partial<NewSubmission> = {}): NewSubmission => ({
    id: randomUUID(),
    formId,
    accountId,
    versionId: 'v',
    data: { name: 'Ada' },
    metadata: { ip: '127.0.0.1', user_agent: null, referer: null, origin: null, utm: {} },
    idempotencyKey: null, idempotencyHash: null,
    fingerprint: 'f',
    createdAt: new Date().toISOString(),
    submissionCap: null,
    ...overrides,
  });

  it('keeps the rest of a batch when one submission\'s form has been deleted meanwhile', async () => {
    const store = submissionStore(t.database.db, batchStatementsFor(t.database.sqliteConnection), t.database.engine);
    const kept = item();
    const orphan = item({ formId: randomUUID() });
    const alsoKept = item();
    const enqueued: string[] = [];
    const outcomes = await store.insertBatch([kept, orphan, alsoKept], async (_tx, created) => {
      enqueued.push(...created.map((c) => c.id));
    });
    assert.deepEqual(outcomes.map((o) => o.kind), ['created', 'form_gone', 'created']);
    assert.deepEqual(enqueued, [kept.id, alsoKept.id], 'only stored submissions get a processing job');
    assert.ok(await store.get(formId, kept.id));
    assert.ok(await store.get(formId, alsoKept.id));
    const form = await t.database.db.selectFrom('forms').select('submission_count').where('id', '=', formId).executeTakeFirstOrThrow();
    assert.equal(Number(form.submission_count), 2);
  });

  it('counts neither a refused nor a replayed submission', async () => {
    const store = submissionStore(t.database.db, batchStatementsFor(t.database.sqliteConnection), t.database.engine);
    const countOf = async () => {
      const form = await t.database.db.selectFrom('forms').select('submission_count').where('id', '=', formId).executeTakeFirstOrThrow();
      const account = await t.database.db.selectFrom('accounts').select('submissions_total').where('id', '=', accountId).executeTakeFirstOrThrow();
      return [Number(form.submission_count), Number(account.submissions_total)];
    };
    const [formBefore, accountBefore] = await countOf();
    const outcomes = await store.insertBatch([
      item({ idempotencyKey: 'same', idempotencyHash: 'request-a' }),
      item({ idempotencyKey: 'same', idempotencyHash: 'request-a' }),
      item({ idempotencyKey: 'same', idempotencyHash: 'request-b' }),
      item({ submissionCap: 0 }),
    ], async () => {});
    assert.deepEqual(outcomes.map((o) => o.kind), ['created', 'duplicate', 'key_reused', 'plan_limit']);
    assert.deepEqual(await countOf(), [formBefore! + 1, accountBefore! + 1]);
  });

  it('admits as many of a batch as the free cap leaves room for, in order, and counts exactly those', async () => {
    const store = submissionStore(t.database.db, batchStatementsFor(t.database.sqliteConnection), t.database.engine);
    const account = await t.database.db.selectFrom('accounts').select('submissions_total').where('id', '=', accountId).executeTakeFirstOrThrow();
    const cap = Number(account.submissions_total) + 2;
    const form = await t.database.db.selectFrom('forms').select('submission_count').where('id', '=', formId).executeTakeFirstOrThrow();
    const batch = [item({ submissionCap: cap }), item({ submissionCap: cap }), item({ submissionCap: cap }), item({ submissionCap: cap })];
    const outcomes = await store.insertBatch(batch, async () => {});
    assert.deepEqual(outcomes.map((o) => o.kind), ['created', 'created', 'plan_limit', 'plan_limit']);
    const after = await t.database.db.selectFrom('accounts').select('submissions_total').where('id', '=', accountId).executeTakeFirstOrThrow();
    assert.equal(Number(after.submissions_total), cap);
    const formAfter = await t.database.db.selectFrom('forms').select('submission_count').where('id', '=', formId).executeTakeFirstOrThrow();
    assert.equal(Number(formAfter.submission_count), Number(form.submission_count) + 2);
    assert.equal(await store.get(formId, batch[2]!.id), null);
  });
});
