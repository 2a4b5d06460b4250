// The two look-ups of deliveries by submission (the destinations a finishing batch already reached,
// a submission's own deliveries) seek through an index instead of reading every delivery.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createTestStore } from './helpers.ts';

const LOOKUPS = [
  sql`select submission_id, destination_id from deliveries where submission_id in ('s1', 's2')`,
  sql`select id from deliveries where submission_id = 's1' order by created_at desc limit 100`,
];

describe('deliveries by submission', () => {
  it('are found through an index', async () => {
    const store = await createTestStore();
    const database = openDatabase({ databaseUrl: store.databaseUrl, dataDir: store.dataDir });
    try {
      await migrateToLatest(database);
      for (const lookup of LOOKUPS) {
        const plan = database.engine === 'postgres'
          // On an empty table PostgreSQL rightly prefers a scan: forbid it, so only an index can serve.
          ? await database.db.transaction().execute(async (tx) => {
            await sql`set local enable_seqscan = off`.execute(tx);
            return (await sql<Record<string, string>>`explain ${lookup}`.execute(tx)).rows.map((row) => Object.values(row).join()).join('\n');
          })
          : (await sql<{ detail: string }>`explain query plan ${lookup}`.execute(database.db)).rows.map((row) => row.detail).join('\n');
        assert.match(plan, /deliveries_submission/, plan);
      }
    } finally {
      await database.close();
      await store.cleanup();
    }
  });
});
