// `intake migrate`: applies the pending migrations and says which.
import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

export async function migrateCommand(config: Config): Promise<void> {
  const database = openDatabase(config);
  try {
    const applied = await migrateToLatest(database);
    process.stderr.write(applied.length ? `Applied ${applied.join(', ')}\n` : 'Database is up to date.\n');
  } finally {
    await database.close();
  }
}
