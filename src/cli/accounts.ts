// The accounts service on a migrated database, for one CLI command: opened, used, closed.
import { accountService } from '../accounts/service.ts';
import { accountStore } from '../accounts/store.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

export async function withAccounts<T>(config: Config, run: (accounts: ReturnType<typeof accountService>) => Promise<T>): Promise<T> {
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    return await run(accountService(accountStore(database.db), config));
  } finally {
    await database.close();
  }
}
