// The figures behind the charts, per form and UTC day, kept by triggers in the transaction of every
// write, whichever code makes it: a chart of 90 days reads 90 rows a form, not the submissions.
//
// Every count is of the rows as they are now, by the day the submission arrived (a delivery: the day
// it was created): received, spam, replies drafted (`completed`), sent and declined (`failed`: no
// answer in the knowledge base, or the send failed), languages, and deliveries of submissions that
// succeeded or failed. A deleted submission leaves its day's counts, as it leaves the form's counter;
// a deleted destination takes its delivery counts along. So each count equals a count of the rows.
//
// PostgreSQL: an INSERT or DELETE statement moves each (form, day) once, from its transition table
// (the submit path's batch is one upsert per form-day, not one per row); an update of the counted
// columns moves them row by row, after locking the form row first as 0003's triggers do, so every
// writer of a form's counts holds that form's row first and two transactions never deadlock.
// SQLite has no statement triggers: its row triggers run in the writer's thread, with no round trip.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Engine } from './column-types.ts';

const sqliteDay = (row: string) => `substr(${row}.created_at, 1, 10)`;
const postgresDay = (row: string) => `to_char(${row}.created_at at time zone 'UTC', 'YYYY-MM-DD')`;

const COUNTS = ['received', 'spam', 'replies_drafted', 'replies_sent', 'replies_declined'] as const;
/** What one submission row adds to each count, as SQL over `row`. */
const sqliteShares = (row: string) => [
  '1', `${row}.spam_flag`, `${row}.reply_status = 'completed'`, `${row}.reply_status = 'sent'`, `${row}.reply_status = 'failed'`,
];
const addAll = (table: string) => COUNTS.map((c) => `${c} = ${table}${c} + excluded.${c}`).join(', ');

function sqliteAdd(row: 'new'): string[] {
  return [
    `insert into daily_counts (form_id, day, ${COUNTS.join(', ')})
     values (new.form_id, ${sqliteDay(row)}, ${sqliteShares(row).join(', ')})
     on conflict (form_id, day) do update set ${addAll('')};`,
    `insert into daily_languages (form_id, day, language, submissions)
     select new.form_id, ${sqliteDay(row)}, new.original_language, 1 where new.original_language is not null
     on conflict (form_id, day, language) do update set submissions = submissions + 1;`,
  ];
}

// Updates only: a count taken away never creates a row (the form's may be going in the same statement).
function sqliteTakeAway(row: 'old'): string[] {
  const shares = sqliteShares(row);
  return [
    `update daily_counts set ${COUNTS.map((c, i) => `${c} = ${c} - (${shares[i]})`).join(', ')}
     where form_id = old.form_id and day = ${sqliteDay(row)};`,
    `update daily_languages set submissions = submissions - 1
     where old.original_language is not null and form_id = old.form_id and day = ${sqliteDay(row)} and language = old.original_language;`,
  ];
}

const COUNTED_CHANGE = (engine: Engine) =>
  engine === 'postgres'
    ? `old.spam_flag is distinct from new.spam_flag or old.reply_status is distinct from new.reply_status
       or old.original_language is distinct from new.original_language or old.created_at is distinct from new.created_at`
    : `old.spam_flag <> new.spam_flag or old.reply_status <> new.reply_status
       or old.original_language is not new.original_language or old.created_at <> new.created_at`;

const DELIVERY_SHARES = (row: string) => [`${row}.status = 'succeeded'`, `${row}.status = 'failed'`];

const SQLITE_TRIGGERS = [
  `create trigger daily_counts_insert after insert on submissions begin ${sqliteAdd('new').join('\n')} end`,
  `create trigger daily_counts_delete after delete on submissions begin ${sqliteTakeAway('old').join('\n')} end`,
  `create trigger daily_counts_update after update of spam_flag, reply_status, original_language, created_at on submissions
   when ${COUNTED_CHANGE('sqlite')} begin ${[...sqliteTakeAway('old'), ...sqliteAdd('new')].join('\n')} end`,
  `create trigger daily_deliveries_insert after insert on deliveries when new.submission_id is not null and new.status <> 'pending' begin
     insert into daily_deliveries (destination_id, day, delivered, failed)
     values (new.destination_id, ${sqliteDay('new')}, ${DELIVERY_SHARES('new').join(', ')})
     on conflict (destination_id, day) do update set delivered = delivered + excluded.delivered, failed = failed + excluded.failed;
   end`,
  `create trigger daily_deliveries_update after update of status, created_at on deliveries
   when new.submission_id is not null and (old.status <> new.status or old.created_at <> new.created_at) begin
     update daily_deliveries set delivered = delivered - (old.status = 'succeeded'), failed = failed - (old.status = 'failed')
     where destination_id = old.destination_id and day = ${sqliteDay('old')};
     insert into daily_deliveries (destination_id, day, delivered, failed)
     values (new.destination_id, ${sqliteDay('new')}, ${DELIVERY_SHARES('new').join(', ')})
     on conflict (destination_id, day) do update set delivered = delivered + excluded.delivered, failed = failed + excluded.failed;
   end`,
  `create trigger daily_deliveries_delete after delete on deliveries when old.submission_id is not null and old.status <> 'pending' begin
     update daily_deliveries set delivered = delivered - (old.status = 'succeeded'), failed = failed - (old.status = 'failed')
     where destination_id = old.destination_id and day = ${sqliteDay('old')};
   end`,
];

/** Grouped per (form, day), in key order, so that concurrent statements lock the count rows in one order. */
const postgresGrouped = (rows: string) =>
  `select form_id, ${postgresDay(rows)} as day, count(*) as received, count(*) filter (where spam_flag) as spam,
     count(*) filter (where reply_status = 'completed') as replies_drafted, count(*) filter (where reply_status = 'sent') as replies_sent,
     count(*) filter (where reply_status = 'failed') as replies_declined
   from ${rows} group by 1, 2 order by 1, 2`;
const postgresLanguages = (rows: string) =>
  `select form_id, ${postgresDay(rows)} as day, original_language as language, count(*) as submissions
   from ${rows} where original_language is not null group by 1, 2, 3 order by 1, 2, 3`;

const POSTGRES_FUNCTIONS = [
  `create function daily_counts_inserted() returns trigger language plpgsql as $$
   begin
     insert into daily_counts (form_id, day, ${COUNTS.join(', ')}) ${postgresGrouped('inserted')}
     on conflict (form_id, day) do update set ${addAll('daily_counts.')};
     insert into daily_languages (form_id, day, language, submissions) ${postgresLanguages('inserted')}
     on conflict (form_id, day, language) do update set submissions = daily_languages.submissions + excluded.submissions;
     return null;
   end $$`,
  `create function daily_counts_deleted() returns trigger language plpgsql as $$
   begin
     perform 1 from forms where id in (select form_id from deleted) order by id for no key update;
     update daily_counts as d set ${COUNTS.map((c) => `${c} = d.${c} - g.${c}`).join(', ')}
     from (${postgresGrouped('deleted')}) as g where d.form_id = g.form_id and d.day = g.day;
     update daily_languages as d set submissions = d.submissions - g.submissions
     from (${postgresLanguages('deleted')}) as g where d.form_id = g.form_id and d.day = g.day and d.language = g.language;
     return null;
   end $$`,
  `create function daily_counts_updated() returns trigger language plpgsql as $$
   declare
     old_day text := ${postgresDay('old')};
     new_day text := ${postgresDay('new')};
   begin
     perform 1 from forms where id = old.form_id for no key update;
     if (old.spam_flag, old.reply_status, old_day) is distinct from (new.spam_flag, new.reply_status, new_day) then
     update daily_counts set received = received - 1, spam = spam - old.spam_flag::int,
       replies_drafted = replies_drafted - (old.reply_status = 'completed')::int, replies_sent = replies_sent - (old.reply_status = 'sent')::int,
       replies_declined = replies_declined - (old.reply_status = 'failed')::int
     where form_id = old.form_id and day = old_day;
     insert into daily_counts (form_id, day, ${COUNTS.join(', ')})
     values (new.form_id, new_day, 1, new.spam_flag::int, (new.reply_status = 'completed')::int, (new.reply_status = 'sent')::int, (new.reply_status = 'failed')::int)
     on conflict (form_id, day) do update set ${addAll('daily_counts.')};
     end if;
     if old.original_language is distinct from new.original_language or old_day <> new_day then
       if old.original_language is not null then
         update daily_languages set submissions = submissions - 1 where form_id = old.form_id and day = old_day and language = old.original_language;
       end if;
       if new.original_language is not null then
         insert into daily_languages (form_id, day, language, submissions) values (new.form_id, new_day, new.original_language, 1)
         on conflict (form_id, day, language) do update set submissions = daily_languages.submissions + 1;
       end if;
     end if;
     return null;
   end $$`,
  `create function daily_deliveries_count() returns trigger language plpgsql as $$
   begin
     if tg_op in ('UPDATE', 'DELETE') and old.submission_id is not null and old.status <> 'pending' then
       update daily_deliveries set delivered = delivered - (old.status = 'succeeded')::int, failed = failed - (old.status = 'failed')::int
       where destination_id = old.destination_id and day = ${postgresDay('old')};
     end if;
     if tg_op in ('INSERT', 'UPDATE') and new.submission_id is not null and new.status <> 'pending' then
       insert into daily_deliveries (destination_id, day, delivered, failed)
       values (new.destination_id, ${postgresDay('new')}, (new.status = 'succeeded')::int, (new.status = 'failed')::int)
       on conflict (destination_id, day) do update
         set delivered = daily_deliveries.delivered + excluded.delivered, failed = daily_deliveries.failed + excluded.failed;
     end if;
     return null;
   end $$`,
];

const POSTGRES_TRIGGERS = [
  `create trigger daily_counts_insert after insert on submissions
   referencing new table as inserted for each statement execute function daily_counts_inserted()`,
  `create trigger daily_counts_delete after delete on submissions
   referencing old table as deleted for each statement execute function daily_counts_deleted()`,
  `create trigger daily_counts_update after update of spam_flag, reply_status, original_language, created_at on submissions
   for each row when (${COUNTED_CHANGE('postgres')}) execute function daily_counts_updated()`,
  `create trigger daily_deliveries_insert after insert on deliveries
   for each row when (new.submission_id is not null and new.status <> 'pending') execute function daily_deliveries_count()`,
  `create trigger daily_deliveries_update after update of status, created_at on deliveries
   for each row when (old.status is distinct from new.status or old.created_at is distinct from new.created_at) execute function daily_deliveries_count()`,
  `create trigger daily_deliveries_delete after delete on deliveries
   for each row when (old.submission_id is not null and old.status <> 'pending') execute function daily_deliveries_count()`,
];

/**
 * Recounts every day from the rows: this migration's backfill, and the repair after a bulk load that
 * went around the triggers (the benchmark's). `formId` limits it to one form.
 */
export async function rebuildDailyCounts(db: Kysely<any>, engine: Engine, formId?: string): Promise<void> {
  const day = sql.raw(engine === 'postgres' ? postgresDay('s') : sqliteDay('s'));
  const deliveryDay = sql.raw(engine === 'postgres' ? postgresDay('d') : sqliteDay('d'));
  const flag = (condition: string) => sql.raw(`sum(case when ${condition} then 1 else 0 end)`);
  const ofForm = formId === undefined ? sql`` : sql`and s.form_id = ${formId}`;
  const destinationOfForm = formId === undefined ? sql`` : sql`and t.form_id = ${formId}`;
  await sql`delete from daily_counts where true ${formId === undefined ? sql`` : sql`and form_id = ${formId}`}`.execute(db);
  await sql`delete from daily_languages where true ${formId === undefined ? sql`` : sql`and form_id = ${formId}`}`.execute(db);
  await sql`delete from daily_deliveries where destination_id in (select t.id from destinations t where true ${destinationOfForm})`.execute(db);
  await sql`insert into daily_counts (form_id, day, received, spam, replies_drafted, replies_sent, replies_declined)
    select s.form_id, ${day}, count(*), ${flag('s.spam_flag')}, ${flag("s.reply_status = 'completed'")}, ${flag("s.reply_status = 'sent'")},
      ${flag("s.reply_status = 'failed'")}
    from submissions s where true ${ofForm} group by 1, 2`.execute(db);
  await sql`insert into daily_languages (form_id, day, language, submissions)
    select s.form_id, ${day}, s.original_language, count(*) from submissions s
    where s.original_language is not null ${ofForm} group by 1, 2, 3`.execute(db);
  await sql`insert into daily_deliveries (destination_id, day, delivered, failed)
    select d.destination_id, ${deliveryDay}, ${flag("d.status = 'succeeded'")}, ${flag("d.status = 'failed'")}
    from deliveries d join destinations t on t.id = d.destination_id
    where d.submission_id is not null and d.status <> 'pending' ${destinationOfForm} group by 1, 2`.execute(db);
}

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  let counts = db.schema.createTable('daily_counts')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull());
  for (const column of COUNTS) counts = counts.addColumn(column, 'integer', (c) => c.notNull().defaultTo(0));
  await counts.addPrimaryKeyConstraint('daily_counts_pk', ['form_id', 'day']).execute();
  await db.schema.createTable('daily_languages')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('submissions', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_languages_pk', ['form_id', 'day', 'language'])
    .execute();
  await db.schema.createTable('daily_deliveries')
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('delivered', 'integer', (c) => c.notNull())
    .addColumn('failed', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_deliveries_pk', ['destination_id', 'day'])
    .execute();
  // Only get_submission_stats read it (replies by sending day); the counts above replace it, and each reply sent paid for it.
  await db.schema.dropIndex('submissions_form_replied').execute();
  // The dashboard's audit page filters by surface.
  await db.schema.createIndex('audit_log_account_surface').on('audit_log').columns(['account_id', 'surface', 'id desc']).execute();
  if (t.engine === 'postgres') for (const fn of POSTGRES_FUNCTIONS) await sql.raw(fn).execute(db);
  for (const trigger of t.engine === 'postgres' ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) await sql.raw(trigger).execute(db);
  await rebuildDailyCounts(db, t.engine);
}
