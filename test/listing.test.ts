// Deep pages are served from per-block counts (migration 0003). Every page must still be exactly
// what a plain OFFSET over the rows would give, after deletions and spam-flag changes too.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { LISTING_BLOCK_SIZE, rebuildSubmissionBlocks } from '../src/db/migrations/0003_listing.ts';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

type Filter = 'inbox' | 'spam' | 'all';
interface Listed {
  data: Array<{ id: string; spam_flag: boolean }>;
  meta: { current_page: number; total_pages: number; total_count: number; page_size: number };
}

const SUBMISSIONS = 3 * LISTING_BLOCK_SIZE - 100;

describe('listing deep pages', () => {
  let t: TestApp;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  /** Oldest first, as stored. */
  let ids: string[] = [];
  const spam = new Set<string>();

  const list = async (filter: Filter, page: number, pageSize: number): Promise<Listed> => {
    const response = await t.request({
      method: 'GET',
      url: `/api/forms/${form.id}/submissions?filter=${filter}&page=${page}&page_size=${pageSize}`,
      headers: bearer(key),
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };

  /** What a plain scan would answer: newest first, filtered. */
  const expected = (filter: Filter) =>
    [...ids].reverse().filter((id) => filter === 'all' || (filter === 'spam') === spam.has(id));

  const setSpam = async (changed: string[], flag: boolean) => {
    await t.database.db.updateTable('submissions').set({ spam_flag: flag }).where('id', 'in', changed).execute();
    for (const id of changed) flag ? spam.add(id) : spam.delete(id);
    // The pipeline moves the form's counter with the flag; the listing's totals come from it.
    await t.database.db.updateTable('forms').set({ spam_count: spam.size }).where('id', '=', form.id).execute();
  };

  const assertEveryPage = async (filter: Filter, pageSize: number) => {
    const want = expected(filter);
    const pages = Math.ceil(want.length / pageSize);
    for (let page = 1; page <= pages + 1; page++) {
      const { data, meta } = await list(filter, page, pageSize);
      const slice = want.slice((page - 1) * pageSize, page * pageSize);
      assert.deepEqual(data.map((s) => s.id), slice, `${filter} page ${page} of size ${pageSize}`);
      assert.deepEqual(meta, { current_page: page, total_pages: pages, total_count: want.length, page_size: pageSize });
    }
  };

  before(async () => {
    t = await startTestApp();
    key = await t.createKey();
    form = await createForm(t, key);
    // Most rows are written straight into the table (the block counts come from triggers, whatever
    // writes the rows); the newest arrive through the endpoint, concurrently, so they commit in groups.
    const version = await t.database.db.selectFrom('forms').select('current_version_id').where('id', '=', form.id).executeTakeFirstOrThrow();
    const direct = SUBMISSIONS - 100;
    for (let i = 0; i < direct; i += 500) {
      const rows = Array.from({ length: Math.min(500, direct - i) }, (_, k) => ({
        id: randomUUID(),
        form_id: form.id,
        version_id: version.current_version_id,
        data: JSON.stringify({ name: `Person ${i + k}`, email: `p${i + k}@example.com` }),
        metadata: JSON.stringify({ ip: '127.0.0.1', user_agent: null, referer: null, origin: null, utm: {} }),
        processing_status: 'completed' as const,
        spam_flag: false,
        reply_status: 'pending' as const,
        created_at: new Date().toISOString(),
      }));
      await t.database.db.insertInto('submissions').values(rows).execute();
    }
    await t.database.db.updateTable('forms').set({ submission_count: direct }).where('id', '=', form.id).execute();
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name: `Person ${direct + i}`, email: `q${i}@example.com` } })),
    );
    for (const r of responses) assert.equal(r.statusCode, 201, r.body);
    const rows = await t.database.db.selectFrom('submissions').select('id').where('form_id', '=', form.id).orderBy('seq').execute();
    ids = rows.map((r) => r.id);
    assert.equal(ids.length, SUBMISSIONS);
    // Two in five are spam, so the spam filter has deep pages too.
    await setSpam(ids.filter((_, i) => i % 5 < 2), true);
  });
  after(() => t.close());

  it('gives every page of every filter exactly as a scan would', async () => {
    for (const filter of ['all', 'inbox', 'spam'] as const) await assertEveryPage(filter, 100);
  });

  it('stays exact after deletions and spam-flag changes in every block', async () => {
    const deleted = ids.filter((_, i) => i % 37 === 3);
    for (const id of deleted) {
      const response = await t.request({ method: 'DELETE', url: `/api/forms/${form.id}/submissions/${id}`, headers: bearer(key) });
      assert.equal(response.statusCode, 200, response.body);
      spam.delete(id);
    }
    ids = ids.filter((id) => !deleted.includes(id));
    await setSpam(ids.filter((id, i) => i % 11 === 0 && spam.has(id)), false);
    await setSpam(ids.filter((id, i) => i % 13 === 0 && !spam.has(id)), true);
    // Odd page sizes make pages straddle block boundaries.
    for (const filter of ['all', 'inbox', 'spam'] as const) await assertEveryPage(filter, 97);
    const deep = await list('all', 1_000_000, 10);
    assert.deepEqual(deep.data, [], 'a page past the end is empty');
  });

  it('keeps the block counts equal to a recount from the rows', async () => {
    const read = () =>
      sql<{ form_id: string; block: number | string; total: number | string; spam: number | string }>`
        select form_id, block, sum(total) as total, sum(spam) as spam from submission_blocks
        group by form_id, block having sum(total) > 0 order by form_id, block`
        .execute(t.database.db)
        .then(({ rows }) => rows.map((r) => [r.form_id, Number(r.block), Number(r.total), Number(r.spam)]));
    const maintained = await read();
    assert.ok(maintained.length >= 3, 'the submissions span several blocks');
    await rebuildSubmissionBlocks(t.database.db);
    assert.deepEqual(maintained, await read());
  });

  it('drops the counts of a deleted form', async () => {
    const other = await createForm(t, key);
    const posted = await t.request({ method: 'POST', url: pathOf(other.endpoint), payload: { name: 'Gone', email: 'gone@example.com' } });
    assert.equal(posted.statusCode, 201);
    const removed = await t.request({ method: 'DELETE', url: `/api/forms/${other.id}`, headers: bearer(key) });
    assert.equal(removed.statusCode, 200, removed.body);
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from submission_blocks where form_id = ${other.id}`.execute(t.database.db);
    assert.equal(Number(rows[0]?.n), 0);
  });
});
