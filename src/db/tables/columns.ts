// Column types as the two engines return them. SQLite gives 0/1 for booleans, text for JSON and
// timestamps; PostgreSQL gives booleans, parsed jsonb and Date. The read models normalise with values.ts.
import type { ColumnType } from 'kysely';

export type Timestamp = ColumnType<string | Date, string, string>;
export type NullableTimestamp = ColumnType<string | Date | null, string | null, string | null>;
export type Bool = ColumnType<boolean | number, boolean, boolean>;
/** Written as JSON text; read back as text (SQLite) or a parsed value (PostgreSQL jsonb). */
export type Json = ColumnType<unknown, string, string>;
export type NullableJson = ColumnType<unknown, string | null, string | null>;
/** PostgreSQL returns bigint columns as strings. */
export type Count = ColumnType<number | string, number, number | string>;
