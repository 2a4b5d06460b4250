// The only code that reads and writes the server's own settings and its one-time set-up tokens.
import type { Db } from '../db/database.ts';
import type { ServerSettingsTable } from '../db/tables.ts';

type SettingName = ServerSettingsTable['name'];

export function setupStore(db: Db) {
  return {
    async setting(name: SettingName): Promise<string | null> {
      const row = await db.selectFrom('server_settings').select('value').where('name', '=', name).executeTakeFirst();
      return row?.value ?? null;
    },

    /** Sets the setting unless it is set already; true when this call set it. */
    async settleSetting(name: SettingName, value: string, now: string): Promise<boolean> {
      const inserted = await db
        .insertInto('server_settings')
        .values({ name, value, updated_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('name')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    /** Sets the setting, replacing any value it had. */
    async putSetting(name: SettingName, value: string, now: string): Promise<void> {
      await db
        .insertInto('server_settings')
        .values({ name, value, updated_at: now })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
        .execute();
    },

    async insertToken(row: { tokenHash: string; now: string; expiresAt: string }): Promise<void> {
      await db.insertInto('setup_tokens').values({ token_hash: row.tokenHash, created_at: row.now, expires_at: row.expiresAt }).execute();
    },

    async tokenExists(tokenHash: string, now: string): Promise<boolean> {
      const row = await db.selectFrom('setup_tokens').select('token_hash').where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
      return row !== undefined;
    },

    /** Deletes the token if it is still good; true when this call did (a token works once). */
    async takeToken(tokenHash: string, now: string): Promise<boolean> {
      const result = await db.deleteFrom('setup_tokens').where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async deleteAllTokens(): Promise<void> {
      await db.deleteFrom('setup_tokens').execute();
    },
  };
}

export type SetupStore = ReturnType<typeof setupStore>;
