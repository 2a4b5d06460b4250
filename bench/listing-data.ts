// A form with a million submissions, written straight into the database in one statement: about one
// in ten is spam, one in three marked done (the owner's archive), one in ten has no language
// detected and the others one of five, some have replies drafted, sent or declined, and they arrive
// 30 s apart up to now (the last 347 days). The form's and owner's counters are moved to match (the
// listing reads its totals from them). On SQLite the deep-page block counts and the daily counts
// follow from the triggers, as for any write; PostgreSQL recounts them once (see generatePostgres).
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { rebuildDailyCounts } from '../src/db/migrations/0025_daily_counts.ts';
import { LISTING_BLOCK_SIZE } from '../src/db/migrations/0003_listing.ts';
import { sqlitePath, withPostgres, type BenchStore } from './stores.ts';

export const SPAM_EVERY = 10;
/** Every submission whose number leaves 1 divided by this is marked done. */
export const DONE_EVERY = 3;
const MESSAGE = 'I would like to know more about your services, the pricing for a small team, and whether there is a trial.';
/** Consecutive submissions 30 s apart, the last one now. */
const STEP_SECONDS = 30;
const startOf = (count: number) => Math.floor(Date.now() / 1000) - count * STEP_SECONDS;
/** The generated language and reply state of submission i, as SQL on both engines. */
const LANGUAGE = `case i % 10 when 0 then null when 1 then 'de' when 2 then 'fr' when 3 then 'es' when 4 then 'it' else 'en' end`;
const REPLY = `case when i % 7 = 0 then 'completed' when i % 11 = 0 then 'sent' when i % 13 = 0 then 'failed' else 'pending' end`;

export interface FormRef {
  id: string;
  versionId: string;
  accountId: string;
}

function formRefSqlite(db: DatabaseSync, formId: string): FormRef {
  const row = db.prepare('select id, current_version_id, account_id from forms where id = ?').get(formId) as
    | { id: string; current_version_id: string; account_id: string }
    | undefined;
  if (!row) throw new Error(`no form ${formId}`);
  return { id: row.id, versionId: row.current_version_id, accountId: row.account_id };
}

export function generateSqlite(store: BenchStore, formId: string, count: number): void {
  const db = new DatabaseSync(sqlitePath(store), { timeout: 10_000 });
  try {
    const form = formRefSqlite(db, formId);
    db.exec('begin immediate');
    db.prepare(`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
      insert into submissions (id, form_id, version_id, data, metadata, processing_status, spam_flag, spam_confidence,
        spam_reason, original_language, reply_status, created_at, done)
      select printf('00000000-0000-4000-8000-%012x', i), ?, ?,
        json_object('name', 'Person ' || i, 'email', 'person' || i || '@example.com', 'subject', 'Question ' || (i % 97),
          'message', 'Hello, message ' || i || '. ' || ?),
        json_object('ip', '203.0.113.' || (i % 250), 'user_agent', 'Mozilla/5.0 (bench)', 'referer', 'https://example.com/contact',
          'origin', 'https://example.com', 'utm', json_object()),
        'completed', i % ${SPAM_EVERY} = 0, case when i % ${SPAM_EVERY} = 0 then 0.97 end,
        case when i % ${SPAM_EVERY} = 0 then 'generated spam' end, ${LANGUAGE}, ${REPLY},
        strftime('%Y-%m-%dT%H:%M:%fZ', ? + i * ${STEP_SECONDS}, 'unixepoch'), i % ${DONE_EVERY} = 1
      from n`).run(count, form.id, form.versionId, MESSAGE, startOf(count));
    const spam = Math.floor(count / SPAM_EVERY);
    db.prepare('update forms set submission_count = submission_count + ?, spam_count = spam_count + ? where id = ?').run(count, spam, form.id);
    db.prepare('update accounts set submissions_total = submissions_total + ? where id = ?').run(count, form.accountId);
    db.exec('commit');
  } finally {
    db.close();
  }
}

export async function generatePostgres(store: BenchStore, formId: string, count: number): Promise<void> {
  await withPostgres(store.databaseUrl as string, async (client) => {
    const { rows } = await client.query<{ current_version_id: string; account_id: string }>(
      'select current_version_id, account_id from forms where id = $1', [formId]);
    const form = rows[0];
    if (!form) throw new Error(`no form ${formId}`);
    await client.query('begin');
    // One statement updating one block row a million times would leave a million dead row versions
    // behind; a bulk load recounts its blocks once instead, in the same transaction.
    await client.query('alter table submissions disable trigger user');
    await client.query(`
      insert into submissions (id, form_id, version_id, data, metadata, processing_status, spam_flag, spam_confidence,
        spam_reason, original_language, reply_status, created_at, done)
      select '00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'), $1, $2,
        jsonb_build_object('name', 'Person ' || i, 'email', 'person' || i || '@example.com', 'subject', 'Question ' || (i % 97),
          'message', 'Hello, message ' || i || '. ' || $3::text),
        jsonb_build_object('ip', '203.0.113.' || (i % 250), 'user_agent', 'Mozilla/5.0 (bench)', 'referer', 'https://example.com/contact',
          'origin', 'https://example.com', 'utm', '{}'::jsonb),
        'completed', i % ${SPAM_EVERY} = 0, case when i % ${SPAM_EVERY} = 0 then 0.97 end,
        case when i % ${SPAM_EVERY} = 0 then 'generated spam' end, ${LANGUAGE}, ${REPLY},
        to_timestamp($4::bigint + i * ${STEP_SECONDS}), i % ${DONE_EVERY} = 1
      from generate_series(1, $5::int) as i`, [formId, form.current_version_id, MESSAGE, startOf(count), count]);
    await client.query('alter table submissions enable trigger user');
    await client.query('delete from submission_blocks where form_id = $1', [formId]);
    await client.query(`
      insert into submission_blocks (form_id, block, total, spam, done, done_spam)
      select form_id, seq / ${LISTING_BLOCK_SIZE}, count(*), count(*) filter (where spam_flag), count(*) filter (where done),
        count(*) filter (where done and spam_flag)
      from submissions where form_id = $1 group by form_id, seq / ${LISTING_BLOCK_SIZE}`, [formId]);
    const spam = Math.floor(count / SPAM_EVERY);
    await client.query('update forms set submission_count = submission_count + $1, spam_count = spam_count + $2 where id = $3', [count, spam, formId]);
    await client.query('update accounts set submissions_total = submissions_total + $1 where id = $2', [count, form.account_id]);
    await client.query('commit');
    // The daily counts of the charts, recounted once as the blocks were (the triggers were off).
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: store.databaseUrl as string, max: 1 }) }) });
    try {
      await rebuildDailyCounts(db, 'postgres', formId);
    } finally {
      await db.destroy();
    }
    // What autovacuum would have done by the time anyone lists a million submissions.
    await client.query('vacuum analyze submissions');
    await client.query('vacuum analyze submission_blocks');
    await client.query('vacuum analyze daily_counts');
    await client.query('vacuum analyze daily_languages');
  });
}
