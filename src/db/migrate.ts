// Migrations live in code and run on start. Kysely's migrator serialises concurrent runs:
// PostgreSQL through an advisory lock, SQLite through the write lock its `begin immediate` takes.
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Database } from './database.ts';
import { columnTypes, type ColumnTypes } from './migrations/column-types.ts';
import * as core from './migrations/0001_core.ts';

type CodeMigration = { up(db: Kysely<any>, t: ColumnTypes): Promise<void> };

const MIGRATIONS: Record<string, CodeMigration> = {
  '0001_core': core,
};

class CodeMigrationProvider implements MigrationProvider {
  readonly #types: ColumnTypes;
  constructor(types: ColumnTypes) {
    this.#types = types;
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    const types = this.#types;
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db: Kysely<any>) => m.up(db, types) }]),
    );
  }
}

/** Applies every pending migration; returns the names applied by this call. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({
    db: database.db,
    provider: new CodeMigrationProvider(columnTypes(database.engine)),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
