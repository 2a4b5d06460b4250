// The pipeline benchmark's backlog and what became of it. Submissions are written straight into
// the database, with the columns the submit path writes (fingerprint included, computed by its own
// function), the form's and owner's counters moved to match, and their processing jobs added
// through the engine's own queue (src/jobs), all in one transaction: when it commits, the whole
// backlog is there at once, as if the workers had been away while it arrived. The jobs are shaped
// as the submit path shapes them: `batched`, as a burst stores them (up to 32 submissions a job),
// or `single`, a job each, as submissions that arrived one at a time.
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import type { FieldDefinition } from '../src/forms/field-schema.ts';
import { jobQueueFor } from '../src/jobs/index.ts';
import { processingJobsFor } from '../src/pipeline/tasks.ts';
import { contentFingerprint } from '../src/submissions/fingerprint.ts';
import { CONTACT_FORM } from './intake-setup.ts';
import type { GeneratedSubmission } from './pipeline-corpus.ts';
import { sqlitePath, withPostgres, type BenchStore } from './stores.ts';

/** Rows per statement: SQLite binds at most 32,766 parameters to one. */
const CHUNK = 1000;
const FIELDS = CONTACT_FORM.fields_schema.fields.map((field) => ({ rules: [], ...field })) as FieldDefinition[];

/** Writes the backlog and returns the wall-clock time (ms since the epoch) at which it committed. */
export type JobShape = 'batched' | 'single';

export async function writeBacklog(store: BenchStore, formId: string, submissions: GeneratedSubmission[], jobs: JobShape = 'batched'): Promise<number> {
  const config = loadConfig(store.env);
  const database = openDatabase({ ...config, poolSize: 1 });
  try {
    const queue = jobQueueFor(database, config.pipeline);
    await database.db.transaction().execute(async (tx) => {
      const form = await tx.selectFrom('forms').select(['current_version_id', 'account_id']).where('id', '=', formId).executeTakeFirstOrThrow();
      const createdAt = new Date().toISOString();
      const rows = submissions.map(({ data, ip }) => ({
        id: randomUUID(),
        form_id: formId,
        version_id: form.current_version_id,
        data: JSON.stringify(data),
        metadata: JSON.stringify({ ip, user_agent: 'Mozilla/5.0 (bench)', referer: 'https://example.com/contact', origin: 'https://example.com', utm: {} }),
        idempotency_key: null,
        fingerprint: contentFingerprint(data, FIELDS, ip),
        processing_status: 'pending' as const,
        spam_flag: false,
        reply_status: 'pending' as const,
        created_at: createdAt,
      }));
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        await tx.insertInto('submissions').values(chunk).execute();
        const ids = chunk.map((row) => row.id);
        await queue.enqueueInTransaction(tx, jobs === 'batched' ? processingJobsFor(ids.map((id) => ({ id }))) : ids.flatMap((id) => processingJobsFor([{ id }])));
      }
      await tx.updateTable('forms').set((eb) => ({ submission_count: eb('submission_count', '+', rows.length) })).where('id', '=', formId).execute();
      await tx.updateTable('accounts').set((eb) => ({ submissions_total: eb('submissions_total', '+', rows.length) })).where('id', '=', form.account_id).execute();
    });
    return Date.now();
  } finally {
    await database.close();
  }
}

export interface BacklogOutcome {
  /** Submissions by final status (pending and processing included, if any are left). */
  statuses: Record<string, number>;
  spam: number;
  /** Detected languages, most frequent first; "none" where the text was too short to tell. */
  languages: Array<[string, number]>;
  /** The last processed_at, in ms since the epoch. */
  lastProcessedAt: number;
  /** Jobs still in the queue (finished jobs are deleted). */
  jobsLeft: number;
}

const UNFINISHED = `select count(*) as n from submissions where form_id = $1 and processing_status in ('pending', 'processing')`;

/** A cheap look at the database, from its own connection: how many of the form's submissions are not final yet. */
export async function backlogWatcher(store: BenchStore, formId: string): Promise<{ unfinished(): Promise<number>; close(): Promise<void> }> {
  if (store.engine === 'sqlite') {
    const db = new DatabaseSync(sqlitePath(store), { readOnly: true, timeout: 10_000 });
    const statement = db.prepare(UNFINISHED.replace('$1', '?'));
    return { unfinished: async () => Number((statement.get(formId) as { n: number }).n), close: async () => db.close() };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: store.databaseUrl as string });
  await client.connect();
  return {
    unfinished: async () => Number((await client.query<{ n: string }>(UNFINISHED, [formId])).rows[0]?.n ?? 0),
    close: () => client.end(),
  };
}

async function query<T>(store: BenchStore, sql: string, params: Array<string | number>): Promise<T[]> {
  if (store.engine === 'sqlite') {
    const db = new DatabaseSync(sqlitePath(store), { readOnly: true });
    try {
      return db.prepare(sql.replace(/\$\d+/g, '?')).all(...params) as T[];
    } finally {
      db.close();
    }
  }
  return withPostgres(store.databaseUrl as string, async (client) => (await client.query(sql, params)).rows as T[]);
}

export async function backlogOutcome(store: BenchStore, formId: string): Promise<BacklogOutcome> {
  const statuses = await query<{ status: string; n: number | string }>(store,
    'select processing_status as status, count(*) as n from submissions where form_id = $1 group by processing_status', [formId]);
  const languages = await query<{ language: string | null; n: number | string }>(store,
    'select original_language as language, count(*) as n from submissions where form_id = $1 and not spam_flag group by original_language order by count(*) desc', [formId]);
  const [summary] = await query<{ spam: number | string; last: string | Date | null }>(store,
    'select sum(case when spam_flag then 1 else 0 end) as spam, max(processed_at) as last from submissions where form_id = $1', [formId]);
  const jobsTable = store.engine === 'sqlite' ? 'jobs' : `${store.schema}_jobs._private_jobs`;
  const [jobs] = await query<{ n: number | string }>(store, `select count(*) as n from ${jobsTable}`, []);
  return {
    statuses: Object.fromEntries(statuses.map((row) => [row.status, Number(row.n)])),
    spam: Number(summary?.spam ?? 0),
    languages: languages.map((row) => [row.language ?? 'none', Number(row.n)]),
    lastProcessedAt: summary?.last ? new Date(summary.last).getTime() : Number.NaN,
    jobsLeft: Number(jobs?.n ?? 0),
  };
}
