// The few column types that differ between the engines; migrations name the intent, not the engine.
import type { CreateTableBuilder } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

export interface ColumnTypes {
  engine: Engine;
  timestamp: 'text' | 'timestamptz';
  json: 'text' | 'jsonb';
  boolean: 'integer' | 'boolean';
  real: 'real' | 'double precision';
  autoIncrementKey<T extends string>(table: CreateTableBuilder<T, never>, column: string): CreateTableBuilder<T, string>;
}

export function columnTypes(engine: Engine): ColumnTypes {
  const postgres = engine === 'postgres';
  return {
    engine,
    timestamp: postgres ? 'timestamptz' : 'text',
    json: postgres ? 'jsonb' : 'text',
    boolean: postgres ? 'boolean' : 'integer',
    real: postgres ? 'double precision' : 'real',
    autoIncrementKey: (table, column) =>
      postgres
        ? table.addColumn(column, 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
        : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement()),
  };
}
