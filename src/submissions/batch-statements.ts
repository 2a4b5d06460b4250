// The statements that store a batch of new submissions, one kind per engine, for insert-batch.ts's
// insertBatch (through the store's insertBatch): finding the idempotency keys already used, and
// inserting the rows. Chosen once per connection by batchStatementsFor.
import { sql } from 'kysely';
import type { DatabaseSync } from 'node:sqlite';
import { preparedInsert } from '../db/sqlite-dialect.ts';
import { keyOf, type BatchStatements, type FindByKeys, type KeyedSubmission, type SubmissionRow } from './insert-batch.ts';
import { toSubmission } from './store.ts';

const findByIdempotencyKeys: FindByKeys = async (tx, items) => {
  const found = new Map<string, KeyedSubmission>();
  if (items.length === 0) return found;
  const rows = await tx
    .selectFrom('submissions')
    .selectAll()
    .where((eb) => eb(eb.refTuple('form_id', 'idempotency_key'), 'in', items.map((item) => eb.tuple(item.formId, item.idempotencyKey))))
    .execute();
  for (const row of rows) found.set(keyOf(row.form_id, row.idempotency_key as string), { submission: toSubmission(row), hash: row.idempotency_hash });
  return found;
};

/** PostgreSQL's type of each column a new submission row fills (json columns arrive as JSON text). */
const POSTGRES_TYPES: Record<keyof SubmissionRow, string> = {
  id: 'text', form_id: 'text', version_id: 'text', data: 'jsonb', metadata: 'jsonb', idempotency_key: 'text',
  idempotency_hash: 'text', fingerprint: 'text', processing_status: 'text', spam_flag: 'boolean', reply_status: 'text', created_at: 'timestamptz',
};
const POSTGRES_COLUMNS = Object.keys(POSTGRES_TYPES) as Array<keyof SubmissionRow>;

/**
 * PostgreSQL: one INSERT … SELECT FROM json_to_recordset($1) for the whole batch, the same text
 * whatever its size. The rows travel as one JSON parameter: pg's escaping of one array per column
 * cost the event loop more than the statement cost the server.
 */
const postgresBatchStatements: BatchStatements = {
  findByKeys: findByIdempotencyKeys,
  async insertRows(tx, rows) {
    const declared = POSTGRES_COLUMNS.map((c) => sql`${sql.id(c)} ${sql.raw(POSTGRES_TYPES[c] === 'jsonb' ? 'text' : POSTGRES_TYPES[c])}`);
    const selected = POSTGRES_COLUMNS.map((c) => (POSTGRES_TYPES[c] === 'jsonb' ? sql`${sql.id(c)}::jsonb` : sql.id(c)));
    const { rows: stored } = await sql<{ id: string }>`
      insert into submissions (${sql.join(POSTGRES_COLUMNS.map((c) => sql.id(c)))})
      select ${sql.join(selected)} from json_to_recordset(${JSON.stringify(rows)}::json) as r(${sql.join(declared)})
      on conflict (form_id, idempotency_key) do nothing returning id`.execute(tx);
    return new Set(stored.map((r) => r.id));
  },
};

/** SQLite: one prepared single-row insert per row, on the connection that runs the transaction. */
function preparedSqliteStatements(db: DatabaseSync): BatchStatements {
  let insert: ((row: SubmissionRow) => boolean) | null = null;
  return {
    findByKeys: findByIdempotencyKeys,
    async insertRows(_tx, rows) {
      insert ??= preparedInsert(db, 'submissions', rows[0]!, 'on conflict (form_id, idempotency_key) do nothing');
      const inserted = new Set<string>();
      for (const row of rows) if (insert(row)) inserted.add(row.id);
      return inserted;
    },
  };
}

/** The batch statements for a connection: prepared ones on SQLite, one json_to_recordset insert on PostgreSQL. */
export function batchStatementsFor(connection: DatabaseSync | null): BatchStatements {
  return connection ? preparedSqliteStatements(connection) : postgresBatchStatements;
}
