// The daily counts behind the charts (migration 0025) must equal a count of the rows after any mix
// of writes: submissions through the endpoint and the pipeline (spam verdicts, languages),
// deliveries that succeed and fail, spam corrections, reply drafts and results, moved arrival days,
// deletions one by one and with their form; and the migration's backfill counts what was there before it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../src/db/migrate.ts';
import { rebuildDailyCounts } from '../src/db/migrations/0025_daily_counts.ts';
import { loadConfig } from '../src/config.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { createTestStore, ENGINE } from './helpers.ts';
import { bearer, createForm, settled, startPipelineApp, submit, waitFor, type PipelineApp } from './pipeline-helpers.ts';

const DAY_MS = 86_400_000;

/** Every non-zero count, as rows of text, from the daily tables. */
async function kept(db: Kysely<any>): Promise<string[]> {
  // PostgreSQL keeps a day's counts in shard rows (migration 0044): what a day holds is their sum.
  const { rows: counts } = await sql<Record<string, unknown>>`select form_id, day, sum(received) as received, sum(spam) as spam,
      sum(replies_drafted) as replies_drafted, sum(replies_sent) as replies_sent, sum(replies_declined) as replies_declined
    from daily_counts group by form_id, day`.execute(db);
  const { rows: languages } = await sql<Record<string, unknown>>`select form_id, day, language, submissions from daily_languages where submissions <> 0`.execute(db);
  const { rows: deliveries } = await sql<Record<string, unknown>>`select destination_id, day, delivered, failed from daily_deliveries`.execute(db);
  return lines(counts, languages, deliveries);
}

/** The same, counted from the rows themselves. */
async function counted(db: Kysely<any>, engine: string): Promise<string[]> {
  const day = (table: string) => sql.raw(engine === 'postgres' ? `to_char(${table}.created_at at time zone 'UTC', 'YYYY-MM-DD')` : `substr(${table}.created_at, 1, 10)`);
  const sum = (condition: string) => sql.raw(`sum(case when ${condition} then 1 else 0 end)`);
  const { rows: counts } = await sql<Record<string, unknown>>`select s.form_id, ${day('s')} as day, count(*) as received, ${sum('s.spam_flag')} as spam,
      ${sum("s.reply_status = 'completed'")} as replies_drafted, ${sum("s.reply_status = 'sent'")} as replies_sent, ${sum("s.reply_status = 'failed'")} as replies_declined
    from submissions s group by 1, 2`.execute(db);
  const { rows: languages } = await sql<Record<string, unknown>>`select s.form_id, ${day('s')} as day, s.original_language as language, count(*) as submissions
    from submissions s where s.original_language is not null group by 1, 2, 3`.execute(db);
  const { rows: deliveries } = await sql<Record<string, unknown>>`select d.destination_id, ${day('d')} as day,
      ${sum("d.status = 'succeeded'")} as delivered, ${sum("d.status = 'failed'")} as failed
    from deliveries d where d.submission_id is not null and d.status <> 'pending' group by 1, 2`.execute(db);
  return lines(counts, languages, deliveries);
}

/** Rows as text, sorted; a kept row whose counts all went back to zero stands for no row. */
function lines(...tables: Array<Array<Record<string, unknown>>>): string[] {
  const KEYS = /^(form_id|destination_id|day|language)$/;
  return tables.flatMap((rows, i) => rows.flatMap((row) => {
    const entries = Object.entries(row);
    // Counts are numbers on SQLite and bigint strings on PostgreSQL.
    if (entries.every(([k, v]) => KEYS.test(k) || Number(v) === 0)) return [];
    return [`${i}|${entries.map(([k, v]) => (KEYS.test(k) ? String(v) : Number(v))).join('|')}`];
  })).sort();
}

describe(`daily counts (${ENGINE})`, () => {
  let t: PipelineApp;
  let receiver: FakeProvider;
  let key: string;

  before(async () => {
    receiver = await startFakeProvider((request) => (request.path.startsWith('/failing') ? { status: 500, body: { error: 'down' } } : { status: 200, body: { ok: true } }));
    t = await startPipelineApp({ INTAKE_OUTBOUND_ALLOW: '127.0.0.1', INTAKE_DELIVERY_MAX_ATTEMPTS: '1', INTAKE_DELIVERY_TIMEOUT_MS: '2000' });
    key = await t.createKey('counts@example.com');
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('equal a count of the rows after a mixed workload', async () => {
    const api = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
      t.request({ method, url, headers: bearer(key), ...(payload !== undefined && { payload: payload as object }) });
    const form = await createForm(t, key, { spam_protection_enabled: true, localisation_enabled: true });
    const other = await createForm(t, key, { localisation_enabled: true });
    for (const [path, name] of [['/ok', 'CRM'], ['/failing', 'Broken']]) {
      assert.equal((await api('POST', `/api/forms/${form.id}/destinations`, { type: 'webhook', url: `${receiver.url}${path}`, name })).statusCode, 201);
    }
    const texts = [
      'Hello, could you send me the price list for the garden chairs please?',
      'Guten Tag, ich hätte gerne eine Preisliste für die Gartenstühle, vielen Dank.',
      'Bonjour, pourriez-vous m’envoyer la liste des prix des chaises de jardin, merci.',
      'BUY CHEAP PILLS NOW!!! http://spam.example http://spam.example http://spam.example casino viagra',
    ];
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await submit(t, form.endpoint, { name: `Person ${i}`, email: `p${i}@example.com`, message: texts[i % texts.length] }));
    const others: string[] = [];
    for (let i = 0; i < 3; i++) others.push(await submit(t, other.endpoint, { name: `Other ${i}`, email: `o${i}@example.com`, message: texts[i] }));
    for (const id of ids) await settled(t, key, form.id, id);
    for (const id of others) await settled(t, key, other.id, id);
    const { db } = t.database;
    await waitFor('every delivery finished', async () => {
      const pending = await db.selectFrom('deliveries').select('id').where('status', '=', 'pending').executeTakeFirst();
      return pending ? undefined : true;
    });
    assert.deepEqual(await kept(db), await counted(db, t.database.engine), 'after submissions, verdicts, languages and deliveries');

    // Spam corrections both ways, a reply drafted by the owner, one sent, one declined; arrival days moved.
    assert.equal((await api('PATCH', `/api/forms/${form.id}/submissions/${ids[0]}`, { spam_flag: true })).statusCode, 200);
    assert.equal((await api('PATCH', `/api/forms/${form.id}/submissions/${ids[3]}`, { spam_flag: false })).statusCode, 200);
    assert.equal((await api('PATCH', `/api/forms/${form.id}/submissions/${ids[1]}`, { reply_content: 'Here is our price list.' })).statusCode, 200);
    await db.updateTable('submissions').set({ reply_status: 'sent', replied_at: new Date().toISOString() }).where('id', '=', ids[2]!).execute();
    await db.updateTable('submissions').set({ reply_status: 'failed', reply_reason: 'no_answer_in_knowledge_base' }).where('id', '=', ids[5]!).execute();
    await db.updateTable('submissions').set({ created_at: new Date(Date.now() - 3 * DAY_MS).toISOString() }).where('id', 'in', [ids[1]!, ids[4]!, ids[6]!]).execute();
    await db.updateTable('deliveries').set({ created_at: new Date(Date.now() - 2 * DAY_MS).toISOString() }).where('submission_id', '=', ids[6]!).execute();
    await db.updateTable('deliveries').set({ status: 'failed' }).where('submission_id', '=', ids[9]!).where('status', '=', 'succeeded').execute();
    // Marked not spam, ids[3] resumes processing and is delivered now: count once that has finished.
    await settled(t, key, form.id, ids[3]!);
    await waitFor('the resumed submission delivered', async () => {
      const pending = await db.selectFrom('deliveries').select('id').where('status', '=', 'pending').executeTakeFirst();
      return pending ? undefined : true;
    });
    assert.deepEqual(await kept(db), await counted(db, t.database.engine), 'after corrections, replies and moved days');

    // Deletions: one by one, a destination with its deliveries, a whole form.
    for (const id of [ids[1]!, ids[5]!, ids[8]!]) assert.equal((await api('DELETE', `/api/forms/${form.id}/submissions/${id}`)).statusCode < 300, true);
    const destinations = await db.selectFrom('destinations').select('id').where('form_id', '=', form.id).where('name', '=', 'Broken').execute();
    assert.equal((await api('DELETE', `/api/forms/${form.id}/destinations/${destinations[0]!.id}`)).statusCode < 300, true);
    assert.equal((await api('DELETE', `/api/forms/${other.id}`)).statusCode < 300, true);
    assert.deepEqual(await kept(db), await counted(db, t.database.engine), 'after deletions');

    // The stats read them: the form's figures over the last week.
    const overview = await t.services.analysis.overview((await t.services.accounts.authenticate(key))!.account.id, form.id, 7);
    const total = await db.selectFrom('submissions').select((eb) => eb.fn.countAll().as('n')).where('form_id', '=', form.id).executeTakeFirstOrThrow();
    assert.equal(overview.totals.received, Number(total.n));
    assert.ok(overview.totals.deliveryFailures >= 1 && overview.totals.delivered >= 1);
    assert.ok(overview.languages.some((l) => l.language === 'de'));

    // The repair recounts to the same figures.
    await rebuildDailyCounts(db, t.database.engine);
    assert.deepEqual(await kept(db), await counted(db, t.database.engine), 'after a rebuild');
  });
});

describe(`daily counts migration (${ENGINE})`, () => {
  it('backfills the counts of a database older than it', async () => {
    const store = await createTestStore();
    const database = openDatabase(loadConfig({ ...store.env }));
    try {
      await migrateUpTo(database, '0024_dashboard_flashes');
      const db = database.db as Kysely<any>;
      const now = Date.now();
      await db.insertInto('accounts').values({ id: 'a1', email: 'a@example.com', plan: 'pro', created_at: new Date(now).toISOString() }).execute();
      for (const f of ['f1', 'f2']) {
        await db.insertInto('forms').values({ id: f, account_id: 'a1', name: f, slug: f, visibility: 'public', current_version_id: `v-${f}`,
          created_at: new Date(now).toISOString(), updated_at: new Date(now).toISOString() }).execute();
      }
      const rows = Array.from({ length: 40 }, (_, i) => ({
        id: `s${i}`, form_id: i % 3 === 0 ? 'f2' : 'f1', version_id: 'v', data: '{}', metadata: '{}', processing_status: 'completed',
        spam_flag: i % 5 === 0, reply_status: (['pending', 'completed', 'sent', 'failed'] as const)[i % 4], original_language: i % 2 ? 'en' : i % 4 ? null : 'de',
        created_at: new Date(now - (i % 6) * DAY_MS).toISOString(),
      }));
      await db.insertInto('submissions').values(rows).execute();
      await db.insertInto('destinations').values({ id: 'd1', form_id: 'f1', type: 'webhook', name: 'w', target: '{}', source: 'api',
        created_at: new Date(now).toISOString(), updated_at: new Date(now).toISOString() }).execute();
      await db.insertInto('deliveries').values(['succeeded', 'failed', 'pending', 'failed'].map((status, i) => ({
        id: `d${i}`, destination_id: 'd1', submission_id: `s${i}`, event_id: `e${i}`, payload: '{}', status, created_at: new Date(now - i * DAY_MS).toISOString(),
      }))).execute();

      assert.equal((await migrateToLatest(database))[0], '0025_daily_counts', 'the backfill runs first of what the database lacks');
      const expected = await counted(db, database.engine);
      assert.ok(expected.length > 10);
      assert.deepEqual(await kept(db), expected);
    } finally {
      await database.close();
      await store.cleanup();
    }
  });
});
