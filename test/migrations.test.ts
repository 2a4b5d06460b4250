import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { runCli } from './cli.ts';
import { createTestStore, type TestStore } from './helpers.ts';

describe('migrations', () => {
  let store: TestStore;
  before(async () => {
    store = await createTestStore();
  });
  after(() => store.cleanup());

  it('are applied exactly once when several processes start at the same time', async () => {
    const runs = await Promise.all([1, 2, 3, 4].map(() => runCli(['migrate'], store.env)));
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    assert.equal(runs.filter((r) => /Applied/.test(r.stderr)).length, 1, 'one process applied them, the others found them done');
    const database = openDatabase({ databaseUrl: store.databaseUrl, dataDir: store.dataDir });
    try {
      const applied = await database.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
      const names = applied.map((row) => (row as { name: string }).name);
      assert.deepEqual(names, [...new Set(names)]);
      assert.ok(names.includes('0001_core'));
      assert.deepEqual(await migrateToLatest(database), []);
    } finally {
      await database.close();
    }
    const again = await runCli(['migrate'], store.env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /up to date/);
  });
});
