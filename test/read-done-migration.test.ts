// Migration 0023 on a database that held submissions before it: every one unread and not done, the
// block counts' new columns right from the start, and the triggers that replace 0003's keeping every
// count equal to a recount through inserts, flag changes (both at once too) and deletes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { migrateUpTo } from '../src/db/migrate.ts';
import { rebuildSubmissionBlocks } from '../src/db/migrations/0023_read_and_done.ts';
import { createTestStore } from './helpers.ts';

describe('migration 0023', () => {
  it('adds read and done to existing submissions and keeps the block counts exact', async () => {
    const store = await createTestStore();
    const database = openDatabase({ databaseUrl: store.databaseUrl, dataDir: store.dataDir });
    try {
      await migrateUpTo(database, '0021_oauth');
      const now = new Date().toISOString();
      const { db } = database;
      await db.insertInto('accounts').values({ id: 'a1', email: 'owner@example.com', plan: 'pro', created_at: now } as never).execute();
      await db.insertInto('forms').values({ id: 'f1', account_id: 'a1', name: 'Contact', slug: 'contact', visibility: 'public', current_version_id: 'v1', created_at: now, updated_at: now } as never).execute();
      await db.insertInto('form_versions').values({ id: 'v1', form_id: 'f1', version: 1, segment: 'seg1', slug: 'contact', fields_schema: JSON.stringify({ fields: [] }), created_at: now } as never).execute();
      const insert = (ids: string[], spam: boolean) =>
        db.insertInto('submissions').values(ids.map((id) => ({ id, form_id: 'f1', version_id: 'v1', data: '{}', metadata: '{}', spam_flag: spam, created_at: now })) as never).execute();
      await insert(['old1', 'old2'], false);
      await insert(['old3'], true);

      assert.deepEqual(await migrateUpTo(database, '0023_read_and_done'), ['0023_read_and_done']);
      const rows = await db.selectFrom('submissions').select(['id', 'done', 'done_at', 'read_at']).orderBy('id').execute();
      assert.deepEqual(rows.map((r) => [r.id, Boolean(r.done), r.done_at, r.read_at]), [['old1', false, null, null], ['old2', false, null, null], ['old3', false, null, null]]);

      const counts = () => sql<{ block: number | string; total: number; spam: number; done: number; done_spam: number }>`
        select block, total, spam, done, done_spam from submission_blocks where form_id = 'f1' and total > 0 order by block`
        .execute(db).then(({ rows: found }) => found.map((r) => [Number(r.block), Number(r.total), Number(r.spam), Number(r.done), Number(r.done_spam)]));
      const recount = async () => {
        const maintained = await counts();
        await rebuildSubmissionBlocks(db);
        assert.deepEqual(maintained, await counts());
        return maintained;
      };
      assert.deepEqual((await recount()).map((r) => r.slice(1)), [[3, 1, 0, 0]]);

      await insert(['new1', 'new2'], false);
      await db.updateTable('submissions').set({ done: true }).where('id', 'in', ['old1', 'old3', 'new1']).execute();
      await db.updateTable('submissions').set({ spam_flag: true, done: false }).where('id', '=', 'new1').execute();
      await db.updateTable('submissions').set({ spam_flag: true, done: true }).where('id', '=', 'new2').execute();
      assert.deepEqual((await recount()).map((r) => r.slice(1)), [[5, 3, 3, 2]]);
      await db.deleteFrom('submissions').where('id', 'in', ['old3', 'old2']).execute();
      assert.deepEqual((await recount()).map((r) => r.slice(1)), [[3, 2, 2, 1]]);
    } finally {
      await database.close();
      await store.cleanup();
    }
  });
});
