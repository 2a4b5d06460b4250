// The repeat count (earlier copies of the same content from the same sender) is exact although the
// pipeline, not the submit path, records fingerprints: whatever order jobs run in, however many
// recorders run at once, across a deletion, and on a database migrated from before 0011.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../src/db/migrate.ts';
import { RECORD_AHEAD } from '../src/pipeline/fingerprint-store.ts';
import { pipelineStore } from '../src/pipeline/store.ts';
import { contentFingerprint } from '../src/submissions/fingerprint.ts';
import { bearer, createForm, createTestStore, startTestApp, type TestApp } from './helpers.ts';
import { submit } from './pipeline-helpers.ts';

const COPY = { name: 'Ada', email: 'ada@example.com', message: 'Do you ship to Canada? Please let me know the cost.' };
const OTHER = { name: 'Bob', email: 'bob@example.com', message: 'Is the shop open on Sundays?' };

async function repeatsOf(database: Database, id: string): Promise<number> {
  const work = await pipelineStore(database.db, database.engine).load(id);
  assert.ok(work, `submission ${id} loads`);
  return work.submission.repeats;
}

async function recorded(database: Database, formId: string): Promise<Array<{ seq: number }>> {
  const rows = await database.db.selectFrom('submission_fingerprints').select('seq').where('form_id', '=', formId).orderBy('seq').execute();
  return rows.map((row) => ({ seq: Number(row.seq) }));
}

describe('content fingerprint', () => {
  it('is what every earlier version computed, so stored copies still match new ones', () => {
    const fields = [{ name: 'name', type: 'text' }, { name: 'email', type: 'email' }, { name: 'message', type: 'textarea' }] as never;
    // Keys sorted, strings trimmed and lower-cased; with an email address the content names its sender.
    assert.equal(contentFingerprint({ name: ' Ada', message: 'Hello  there', email: 'ADA@example.com' }, fields, '198.51.100.1'), 'w0muN0v2XE1vQjROjzCs-QtfG6gMjp4Y');
    // Without one, the client address does.
    assert.equal(contentFingerprint({ message: 'hi' }, [] as never, '203.0.113.9'), 'q6K2eQLT2YDRLpLsmaQrOcikNcb9x_0f');
  });

  it('writes the text the earlier sorted copy gave, for any JSON data (index-like keys, nesting, unicode)', () => {
    // The form every fingerprint stored before 2026-12-07 was made with: a sorted, trimmed,
    // lower-cased copy of the data, then JSON.stringify of that copy.
    const canonical = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(canonical);
      if (value && typeof value === 'object') {
        return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
      }
      return typeof value === 'string' ? value.trim().toLowerCase() : value;
    };
    const earlier = (data: Record<string, unknown>) => hash('sha256', `${JSON.stringify(canonical(data))}\n192.0.2.1`, 'base64url').slice(0, 32);
    // Text JSON escapes (quotes, backslashes, control characters, lone surrogates) and text it does not.
    const tricky = fc.constantFrom('say "hi"', 'a\\b', 'tab\there', 'nul\u0000', 'line\u2028', 'half \ud83d', '\udc00 low', 'Ünïcode 你好 👋', ' Padded ');
    const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string(), tricky);
    const key = fc.oneof(text, fc.constantFrom('0', '1', '10', '2', '007', '4294967294', '4294967295', '-1', '1.5', '__proto__', 'B', 'a'));
    const data = fc.dictionary(key, fc.oneof(fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }), text), { maxKeys: 8 });
    fc.assert(fc.property(data, (value) => contentFingerprint(value, [] as never, '192.0.2.1') === earlier(value)), { numRuns: 2000 });
    // Index keys come first in numeric order, whatever order they were sent in.
    assert.equal(contentFingerprint({ b: 1, 10: 2, 2: 3, a: ' X ' }, [] as never, '192.0.2.1'), earlier({ b: 1, 10: 2, 2: 3, a: ' X ' }));
  });
});

describe('repeat count', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t?.close());

  it('counts every earlier copy when a later one is processed first', async () => {
    const form = await createForm(t, await t.createKey());
    // Sent one at a time, so each has a job of its own; no worker runs: the last is loaded first.
    const ids: string[] = [];
    for (const data of [COPY, OTHER, COPY, COPY, COPY]) ids.push(await submit(t, form.endpoint, data));
    assert.equal(await repeatsOf(t.database, ids[4]!), 3);
    assert.equal(await repeatsOf(t.database, ids[2]!), 1);
    assert.equal(await repeatsOf(t.database, ids[0]!), 0);
    assert.equal(await repeatsOf(t.database, ids[1]!), 0);
    assert.equal((await recorded(t.database, form.id)).length, 5, 'each submission recorded once');
  });

  it('is the same for every recorder running at once, each submission recorded once', async () => {
    const form = await createForm(t, await t.createKey());
    const ids = await Promise.all(Array.from({ length: 12 }, () => submit(t, form.endpoint, COPY)));
    // On PostgreSQL a second pool stands for another worker process. (On SQLite, a second connection
    // in this thread would wait on the first synchronously; processes take turns at the file lock.)
    const other = t.database.engine === 'postgres' ? openDatabase({ databaseUrl: t.config.databaseUrl, dataDir: t.config.dataDir }) : t.database;
    try {
      const stores = [pipelineStore(t.database.db, t.database.engine), pipelineStore(other.db, other.engine)];
      const loads = await Promise.all(ids.map((id, i) => stores[i % 2]!.loadMany([id])));
      const counts = loads.map((works) => works[0]!.submission.repeats).sort((a, b) => a - b);
      assert.deepEqual(counts, Array.from({ length: 12 }, (_, i) => i), 'the nth copy has n - 1 before it');
    } finally {
      if (other !== t.database) await other.close();
    }
    const seqs = (await recorded(t.database, form.id)).map((r) => r.seq);
    assert.equal(new Set(seqs).size, 12);
    assert.equal(seqs.length, 12);
  });

  it('records ahead of the job, a bounded number at a time', async () => {
    const form = await createForm(t, await t.createKey());
    const ids: string[] = [];
    for (let i = 0; i < RECORD_AHEAD + 100; i += 100) ids.push(...await Promise.all(Array.from({ length: 100 }, () => submit(t, form.endpoint, COPY))));
    // Sent 100 at a time, they are stored in the order they reach the writer, not the order sent.
    const bySeq = await t.database.db.selectFrom('submissions').select('id').where('form_id', '=', form.id).orderBy('seq').execute();
    assert.equal(bySeq.length, ids.length);
    assert.equal(await repeatsOf(t.database, bySeq[0]!.id), 0);
    assert.equal((await recorded(t.database, form.id)).length, RECORD_AHEAD, 'the jobs after it find theirs recorded');
    assert.equal(await repeatsOf(t.database, bySeq.at(-1)!.id), ids.length - 1);
    assert.equal((await recorded(t.database, form.id)).length, ids.length);
  });

  it('forgets a deleted submission', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const ids = [await submit(t, form.endpoint, COPY), await submit(t, form.endpoint, COPY), await submit(t, form.endpoint, COPY)];
    assert.equal(await repeatsOf(t.database, ids[2]!), 2);
    const deleted = await t.request({ method: 'DELETE', url: `/api/forms/${form.id}/submissions/${ids[0]}`, headers: bearer(key) });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.equal((await recorded(t.database, form.id)).length, 2, 'its fingerprint left with it');
    assert.equal(await repeatsOf(t.database, ids[2]!), 1);
  });
});

describe('migration 0011', () => {
  it('records the fingerprints a database held before it, and drops their index on submissions', async () => {
    const store = await createTestStore();
    const database = openDatabase({ databaseUrl: store.databaseUrl, dataDir: store.dataDir });
    try {
      await migrateUpTo(database, '0010_batch_inserts');
      const now = new Date().toISOString();
      await database.db.insertInto('accounts').values({ id: 'a1', email: 'owner@example.com', plan: 'pro', created_at: now } as never).execute();
      await database.db.insertInto('forms').values({ id: 'f1', account_id: 'a1', name: 'Contact', slug: 'contact', visibility: 'public', current_version_id: 'v1', created_at: now, updated_at: now } as never).execute();
      await database.db.insertInto('form_versions').values({ id: 'v1', form_id: 'f1', version: 1, segment: 'seg1', slug: 'contact', fields_schema: JSON.stringify({ fields: [] }), created_at: now } as never).execute();
      const fingerprints = ['same', 'other', 'same', null, 'same'];
      for (const [i, fingerprint] of fingerprints.entries()) {
        await database.db.insertInto('submissions').values({
          id: `s${i}`, form_id: 'f1', version_id: 'v1', data: '{}', metadata: '{}', fingerprint, created_at: now,
        } as never).execute();
      }

      assert.equal((await migrateToLatest(database))[0], '0011_repeat_fingerprints');
      assert.equal((await recorded(database, 'f1')).length, 4, 'every fingerprint, none for the row without one');
      const mark = await database.db.selectFrom('fingerprint_marks').select('through_seq').where('form_id', '=', 'f1').executeTakeFirstOrThrow();
      const newest = await database.db.selectFrom('submissions').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirstOrThrow();
      assert.equal(Number(mark.through_seq), Number(newest.seq));
      assert.equal(await repeatsOf(database, 's4'), 2);
      assert.equal(await repeatsOf(database, 's1'), 0);

      const indexes = database.engine === 'postgres'
        ? await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'submissions' and schemaname = current_schema()`.execute(database.db)
        : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'submissions'`.execute(database.db);
      assert.ok(!indexes.rows.some((row) => row.name === 'submissions_form_fingerprint'), 'the submit path no longer writes that index');
    } finally {
      await database.close();
      await store.cleanup();
    }
  });
});
