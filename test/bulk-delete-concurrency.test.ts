// A bulk "delete all matching" while the pipeline records the fingerprints (and the data-subject
// index) of new submissions: on PostgreSQL the two took the same rows' locks in opposite orders and
// one of them died of "deadlock detected", which reached the owner as a 500. Twenty trials, each a
// delete of everything in the middle of a stream of submissions the pipeline is working through.
// The pipeline finishes a batch by locking its rows in seq order; a bulk write that reached them in
// id order deadlocked with it too, so each trial also marks everything read and done first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { bearer, createForm, ENGINE, pathOf, startTestApp, type TestApp } from './helpers.ts';
import { formSubmissionCount } from '../src/db/counter-shards.ts';
import { deleteSubmissions } from '../src/data-subjects/store.ts';
import { startPipelineApp, waitFor, type PipelineApp } from './pipeline-helpers.ts';

const TRIALS = 20;
/** Submissions per trial, sent a few at a time. */
const PER_TRIAL = 40;
const IN_FLIGHT = 4;

describe('bulk delete under a concurrent submit load with the pipeline running', () => {
  let t: PipelineApp;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;

  before(async () => {
    t = await startPipelineApp();
    key = await t.createKey();
    form = await createForm(t, key);
  });
  after(() => t?.close());

  it(`never answers 500 to a bulk write in ${TRIALS} trials, and the counts stay right`, async (context) => {
    const statuses: number[] = [];
    let busy = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      let sent = 0;
      const sender = async () => {
        while (sent < PER_TRIAL) {
          const n = sent++;
          const r = await t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name: `T${trial} P${n}`, email: `t${trial}p${n}@example.com`, message: `hello ${n}` } });
          assert.equal(r.statusCode, 201, r.body);
        }
      };
      const load = Promise.all(Array.from({ length: IN_FLIGHT }, sender));
      // Delete while submissions are arriving and being processed: a few times in the middle of the load.
      await waitFor('the first submissions', () => (sent >= PER_TRIAL / 4 ? true : undefined));
      for (const action of ['read', 'done', 'delete', 'delete', 'delete']) {
        const r = await t.request({ method: 'POST', url: `/api/forms/${form.id}/submissions/bulk`, headers: bearer(key), payload: { action, where: { filter: 'all' } } });
        statuses.push(r.statusCode);
        if (r.statusCode === 200 && action === 'delete') busy += r.json().failed_count;
      }
      await load;
    }
    const failures = statuses.filter((s) => s !== 200);
    const errors = t.log.filter((line) => line.level === 'error' && /deadlock/i.test(JSON.stringify(line.object) + line.message)).length;
    context.diagnostic(`${statuses.length} bulk writes: ${failures.length} not 200 (${failures.join(', ')}); ${busy} skipped as being processed; ${errors} pipeline deadlocks logged`);
    // A failure names what the server logged, so that a new cause is seen at once.
    const logged = t.log.filter((line) => line.level === 'error').slice(0, 3).map((line) => `${line.message} ${JSON.stringify(line.object).slice(0, 600)}`);
    assert.deepEqual(failures, [], logged.join('\n'));
    // Whatever is left once the pipeline settles is what the form's counter says.
    await waitFor('the pipeline to settle', async () => {
      const pending = await t.database.db.selectFrom('submissions').select('id').where('form_id', '=', form.id).where('processing_status', 'in', ['pending', 'processing']).executeTakeFirst();
      return pending ? undefined : true;
    }, 60_000);
    const rows = await t.database.db.selectFrom('submissions').select((eb) => eb.fn.countAll().as('n')).where('form_id', '=', form.id).executeTakeFirstOrThrow();
    const counted = await t.database.db.selectFrom('forms').select(formSubmissionCount('forms').as('submission_count')).where('id', '=', form.id).executeTakeFirstOrThrow();
    assert.equal(Number(counted.submission_count), Number(rows.n));
  });
});

describe('the order a bulk write locks submissions in', { skip: ENGINE !== 'postgres' && 'row locks are PostgreSQL’s' }, () => {
  let t: TestApp;
  let key: string;

  before(async () => {
    t = await startTestApp();
    key = await t.createKey();
  });
  after(() => t?.close());

  /** How many of `ids` a bulk action through the API did. */
  async function bulk(formId: string, action: string, ids: string[]): Promise<number> {
    const r = await t.request({ method: 'POST', url: `/api/forms/${formId}/submissions/bulk`, headers: bearer(key), payload: { action, ids } });
    assert.equal(r.statusCode, 200, r.body);
    return ids.length - r.json().failed_count;
  }

  /** How many of `ids` erasure's and the retention purge's delete removed. */
  function erase(formId: string, ids: string[]): Promise<number> {
    return t.database.db.transaction().execute((tx) => deleteSubmissions(tx, 'postgres', formId, ids));
  }

  // The pipeline holds its batch's first submission and is about to lock the next: a bulk write
  // must then wait at the first rather than take the next (and deadlock with it). The oldest row is
  // updated first so that it no longer comes first in the table, as rows the pipeline finished do not.
  // `erase` is what erasure and the retention purge share (deleteSubmissions), without the API.
  for (const action of ['delete', 'done', 'erase']) {
    it(`${action}: waits for the oldest before locking any newer one`, async () => {
      const form = await createForm(t, key);
      const ids: string[] = [];
      for (let n = 0; n < 3; n++) {
        const r = await t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name: `N${n}`, email: `n${n}@example.com`, message: 'hello' } });
        ids.push(r.json().id);
      }
      const db = t.database.db;
      await db.updateTable('submissions').set({ processing_status: 'completed' }).where('form_id', '=', form.id).execute();
      await db.updateTable('submissions').set({ processing_reason: 'moved' }).where('id', '=', ids[0]!).execute();
      const pipeline = await db.startTransaction().execute();
      try {
        await pipeline.selectFrom('submissions').select('id').where('id', '=', ids[0]!).forUpdate().execute();
        const write = action === 'erase' ? erase(form.id, ids) : bulk(form.id, action, ids);
        await waitFor('the bulk write to wait for a row lock', async () => {
          const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%submissions%' and pid <> pg_backend_pid()`.execute(db);
          return waiting.rows[0]!.n > 0 ? true : undefined;
        });
        // The newer ones are free: the bulk write holds none of them while it waits.
        const free = await pipeline.selectFrom('submissions').select('id').where('id', 'in', ids.slice(1)).orderBy('seq').forUpdate().noWait().execute();
        assert.equal(free.length, 2);
        await pipeline.commit().execute();
        assert.equal(await write, ids.length);
      } finally {
        if (!pipeline.isCommitted && !pipeline.isRolledBack) await pipeline.rollback().execute();
      }
    });
  }
});
