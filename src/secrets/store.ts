// The only code that reads and writes the key check: a known text sealed with the key the database's
// secrets are sealed with (server_settings `secret_key_check`), so a process with another key is
// refused at start instead of failing on the first secret it opens.
import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/values.ts';

export function secretCheckStore(db: Db, clock: () => Date = () => new Date()) {
  return {
    async read(): Promise<string | null> {
      const row = await db.selectFrom('server_settings').select('value').where('name', '=', 'secret_key_check').executeTakeFirst();
      return row?.value ?? null;
    },

    /** False when another process recorded its check first. */
    async insert(value: string): Promise<boolean> {
      try {
        await db.insertInto('server_settings').values({ name: 'secret_key_check', value, updated_at: clock().toISOString() }).execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
  };
}

export type SecretCheckStore = ReturnType<typeof secretCheckStore>;
