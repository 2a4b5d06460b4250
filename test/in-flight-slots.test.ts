// In-flight slots on PostgreSQL (src/limits/in-flight.ts): the per-destination cap shared by every
// worker process. A slot names the session of the process that holds it (holder-session.ts), so
// the slots of a process that died are free at once, not after their hold time (45 s by default),
// while a living holder's slots count until it releases them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { holderSession, type HolderSession } from '../src/limits/holder-session.ts';
import { postgresSlots } from '../src/limits/in-flight.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers.ts';

const HOLD_MS = 60_000;

describe('in-flight slots on PostgreSQL', { skip: ENGINE !== 'postgres' && 'PostgreSQL only' }, () => {
  let t: TestApp;
  const sessions: HolderSession[] = [];
  /** The slots of one process: its own holder session. */
  const process = () => {
    const holders = holderSession(t.database.pgPool!);
    sessions.push(holders);
    return { holders, slots: postgresSlots(t.database.db, holders) };
  };
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    for (const session of sessions) await session.close();
    await t.close();
  });

  it("counts a living holder's slots until it releases them", async () => {
    const key = randomUUID();
    const [a, b] = [process(), process()];
    const first = await a.slots.take(key, 2, HOLD_MS);
    const second = await a.slots.take(key, 2, HOLD_MS);
    assert.ok(first && second);
    assert.equal(await b.slots.take(key, 2, HOLD_MS), null, 'the cap holds across processes');
    await first();
    const third = await b.slots.take(key, 2, HOLD_MS);
    assert.ok(third, 'a released slot is free');
    assert.equal(await a.slots.take(key, 2, HOLD_MS), null);
  });

  it('frees at once the slots of a process whose session is gone, long before their hold time', async () => {
    const key = randomUUID();
    const [dying, other] = [process(), process()];
    assert.ok(await dying.slots.take(key, 2, HOLD_MS));
    assert.ok(await dying.slots.take(key, 2, HOLD_MS));
    assert.equal(await other.slots.take(key, 2, HOLD_MS), null);
    // The connection dies as a killed process's does: PostgreSQL ends the backend (waiting until it has).
    const { pid } = await dying.holders.identity();
    const ended = await sql<{ ended: boolean }>`select pg_terminate_backend(${pid}, 5000) as ended`.execute(t.database.db);
    assert.equal(ended.rows[0]?.ended, true);
    assert.ok(await other.slots.take(key, 2, HOLD_MS), 'the dead holder no longer counts');
    assert.ok(await other.slots.take(key, 2, HOLD_MS));
    assert.equal(await other.slots.take(key, 2, HOLD_MS), null, 'and the cap still holds');
  });

  it('still frees slots without a holder (taken before migration 0047) when their hold time is over', async () => {
    const key = randomUUID();
    await t.database.db.insertInto('in_flight_slots').values([
      { key, token: 'old-expired', expires_at: sql<string>`now() - interval '1 second'` },
      { key, token: 'old-held', expires_at: sql<string>`now() + interval '1 minute'` },
    ]).execute();
    const { slots } = process();
    assert.ok(await slots.take(key, 2, HOLD_MS), 'the expired one is gone');
    assert.equal(await slots.take(key, 2, HOLD_MS), null, 'the one still in its hold time counts');
  });
});
