// PostgreSQL: a batch's final statuses in one UPDATE, one round trip instead of one per submission.
// The rows travel as one JSON parameter (as in the submit path's insert), so the text is the same
// for every batch, whatever its size and whichever results its submissions have, and is prepared
// once per connection (db/statement.ts). SQLite keeps one prepared statement per row: in-process,
// a statement costs no round trip.
import { sql } from 'kysely';
import { statement, type Executor } from '../db/statement.ts';
import type { ProcessingStatus, StepResult } from './store.ts';

/** One submission's final status: the values of the columns it sets (undefined: left as it is). */
export interface FinalRow {
  id: string;
  values: Record<string, unknown>;
}

type PostgresType = 'text' | 'boolean' | 'double precision' | 'timestamptz' | 'jsonb';

/** Set for every submission. */
const ALWAYS: Record<string, PostgresType> = {
  processing_status: 'text', processing_reason: 'text', processed_at: 'timestamptz', pipeline_steps: 'jsonb',
};
/** Set when a step produced them: each row names its own in `present`, the others keep their value. */
const RESULTS: Record<keyof StepResult, PostgresType> = {
  spam_flag: 'boolean', spam_confidence: 'double precision', spam_reason: 'text', original_language: 'text', translated_data: 'jsonb',
  reply_status: 'text', reply_subject: 'text', reply_content: 'text', reply_reason: 'text', reply_passages: 'jsonb', reply_confidence: 'jsonb',
};

/**
 * The UPDATE that finishes a batch, skipping submissions already final; it returns the ids it
 * finished. Json columns arrive as JSON text and are cast, as a single row's parameter would be.
 * The rows are locked first, in form and seq order, whatever plan the join gets: two workers'
 * transactions then lock the submissions they share in the same order (no deadlock).
 */
export function postgresFinalStatuses(finalStatuses: readonly ProcessingStatus[]) {
  const final = sql.join(finalStatuses.map((status) => sql.lit(status)));
  const value = (name: string, type: PostgresType) => (type === 'jsonb' ? sql`v.${sql.id(name)}::jsonb` : sql`v.${sql.id(name)}`);
  const sets = [
    ...Object.entries(ALWAYS).map(([name, type]) => sql`${sql.id(name)} = ${value(name, type)}`),
    ...Object.entries(RESULTS).map(([name, type]) =>
      sql`${sql.id(name)} = case when ${sql.lit(name)} = any(v.present) then ${value(name, type)} else s.${sql.id(name)} end`),
  ];
  // Json columns are declared text: their values are JSON texts, cast once they are out of the recordset.
  const declared = Object.entries({ ...ALWAYS, ...RESULTS }).map(([name, type]) => sql`${sql.id(name)} ${sql.raw(type === 'jsonb' ? 'text' : type)}`);
  const update = statement((db, p: { rows: string }) => ({
    compile: () =>
      sql<{ id: string }>`
        update submissions as s set ${sql.join(sets)}
        from (
          select v.* from json_to_recordset(${p.rows}::json) as v(id text, present text[], ${sql.join(declared)})
          join submissions as l on l.id = v.id
          where l.processing_status not in (${final})
          order by l.form_id, l.seq
          for update of l
        ) as v
        where s.id = v.id and s.processing_status not in (${final})
        returning s.id`.compile(db),
  }));

  return async (tx: Executor, rows: FinalRow[]): Promise<Set<string>> => {
    if (rows.length === 0) return new Set();
    const records = rows.map(({ id, values }) => {
      const present = Object.keys(values).filter((name) => !(name in ALWAYS) && values[name] !== undefined);
      for (const name of present) if (!(name in RESULTS)) throw new Error(`no PostgreSQL type for the column ${name}`);
      return { ...values, id, present };
    });
    // A lone UTF-16 surrogate becomes U+FFFD, as pg's encoding of a text parameter makes it: in
    // JSON it would stay an escape that PostgreSQL refuses, failing the whole batch.
    const json = JSON.stringify(records, (_, v: unknown) => (typeof v === 'string' ? v.toWellFormed() : v));
    const { rows: finished } = await update(tx, { rows: json });
    return new Set(finished.map((row) => row.id));
  };
}
