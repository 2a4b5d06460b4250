// Every table and text-holding column of the live schema, on either engine, and a search of all of
// them for a string: what erasure and retention tests use to show nothing was kept by accident.
// Tables added later are searched too: nothing here names a table.
import { sql } from 'kysely';
import type { Database } from '../src/db/database.ts';

export interface ColumnRef {
  table: string;
  column: string;
}

export async function textColumns(database: Database): Promise<ColumnRef[]> {
  if (database.engine === 'postgres') {
    const { rows } = await sql<{ table: string; column: string }>`
      select c.table_name as "table", c.column_name as "column" from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema = current_schema() and c.data_type in ('text', 'jsonb', 'json', 'character varying')
      order by 1, 2`.execute(database.db);
    return rows;
  }
  const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(database.db);
  const columns: ColumnRef[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(database.db);
    for (const row of rows) columns.push({ table: name, column: row.name });
  }
  return columns;
}

/** The columns in which `needle` occurs (case-insensitively), with how many rows hold it. */
export async function columnsHolding(database: Database, needle: string): Promise<Array<ColumnRef & { rows: number }>> {
  const found: Array<ColumnRef & { rows: number }> = [];
  const pattern = `%${needle.toLowerCase()}%`;
  for (const ref of await textColumns(database)) {
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from ${sql.id(ref.table)} where lower(cast(${sql.id(ref.column)} as text)) like ${pattern}`.execute(database.db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) found.push({ ...ref, rows: n });
  }
  return found;
}
