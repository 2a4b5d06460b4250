// A process's own database session (src/db/own-session.ts), which worker leases and in-flight slots
// name their process by: one connection outside the pool, prepared once when it opens, opened again
// (and the loss heard of) after PostgreSQL ends it, and seen gone by other sessions at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { ownSession, sessionLives } from '../src/db/own-session.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers.ts';

interface Identity { pid: number; start: string }

describe('a process\'s own database session', { skip: ENGINE !== 'postgres' && 'PostgreSQL only' }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  /** Whether `who` is open, as another session reads pg_stat_activity. */
  const lives = async (who: Identity) =>
    (await sql<{ lives: boolean }>`select ${sessionLives('w.pid', 'w.start')} as lives from (select ${who.pid}::int as pid, ${who.start}::timestamptz as start) w`.execute(t.database.db)).rows[0]!.lives;

  it('opens once, prepared once, until PostgreSQL ends it; then says so and opens a new one', async () => {
    let prepared = 0;
    const losses: Error[] = [];
    const session = ownSession(t.database.pgPool!, async (client) => {
      prepared++;
      return (await client.query<Identity>('select pid, backend_start::text as start from pg_stat_activity where pid = pg_backend_pid()')).rows[0]!;
    });
    try {
      const first = await session.open((error) => losses.push(error));
      const again = await session.open();
      assert.equal(again.client, first.client);
      assert.equal(prepared, 1);
      assert.equal(await lives(first.prepared), true);
      assert.equal(await lives({ ...first.prepared, start: '2000-01-01 00:00:00+00' }), false, 'a pid reused by a later session is not the same session');

      await sql`select pg_terminate_backend(${first.prepared.pid}, 5000)`.execute(t.database.db);
      assert.equal(await lives(first.prepared), false, 'gone at once');
      for (let i = 0; i < 100 && losses.length === 0; i++) await sleep(20);
      assert.equal(losses.length, 1, 'the opener heard of the loss');

      const next = await session.open();
      assert.notEqual(next.prepared.pid, first.prepared.pid);
      assert.equal(prepared, 2);
      await session.close();
      // The server ends the backend a moment after the client has hung up.
      let open = true;
      for (let i = 0; i < 100 && open; i++) {
        open = await lives(next.prepared);
        if (open) await sleep(20);
      }
      assert.equal(open, false, 'closed');
    } finally {
      await session.close();
    }
  });
});
