// The only code that reads and writes dashboard passwords, sessions and set-password links.
import type { Db } from '../db/database.ts';
import { toIso } from '../db/values.ts';

export interface SessionRow {
  accountId: string;
  /** The workspace chosen in the menu (0041); null: the person's own, else their first. */
  workspaceId: string | null;
  csrfToken: string;
  expiresAt: string;
}

export function dashboardStore(db: Db) {
  return {
    /** One notice per session: a newer one replaces what the next page has not shown yet. */
    async putFlash(tokenHash: string, payload: string, expiresAt: string, now: string): Promise<void> {
      // Notices no page came to read (the tab was closed) go here: the table holds a few rows at most.
      await db.deleteFrom('dashboard_flashes').where('expires_at', '<=', now).execute();
      await db
        .insertInto('dashboard_flashes')
        .values({ token_hash: tokenHash, payload, expires_at: expiresAt })
        .onConflict((oc) => oc.column('token_hash').doUpdateSet({ payload, expires_at: expiresAt }))
        .execute();
    },

    /** Reads and deletes in one statement, so two pages never both show it. */
    async takeFlash(tokenHash: string, now: string): Promise<string | null> {
      const row = await db.deleteFrom('dashboard_flashes').where('token_hash', '=', tokenHash).returning(['payload', 'expires_at']).executeTakeFirst();
      return row && toIso(row.expires_at) > now ? row.payload : null;
    },

    async anyPassword(): Promise<boolean> {
      const row = await db.selectFrom('account_passwords').select('account_id').limit(1).executeTakeFirst();
      return row !== undefined;
    },

    async passwordHash(accountId: string): Promise<string | null> {
      const row = await db.selectFrom('account_passwords').select('password_hash').where('account_id', '=', accountId).executeTakeFirst();
      return row?.password_hash ?? null;
    },

    async setPassword(accountId: string, hash: string, now: string): Promise<void> {
      await db
        .insertInto('account_passwords')
        .values({ account_id: accountId, password_hash: hash, updated_at: now })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ password_hash: hash, updated_at: now }))
        .execute();
    },

    /** Stores a new session; expired ones of the same account go at the same time. */
    async insertSession(row: { tokenHash: string; accountId: string; csrfToken: string; now: string; expiresAt: string }): Promise<void> {
      await db.deleteFrom('dashboard_sessions').where('account_id', '=', row.accountId).where('expires_at', '<=', row.now).execute();
      await db
        .insertInto('dashboard_sessions')
        .values({ token_hash: row.tokenHash, account_id: row.accountId, csrf_token: row.csrfToken, created_at: row.now, expires_at: row.expiresAt })
        .execute();
    },

    async findSession(tokenHash: string, now: string): Promise<SessionRow | null> {
      const row = await db
        .selectFrom('dashboard_sessions')
        .select(['account_id', 'csrf_token', 'expires_at', 'workspace_id'])
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row ? { accountId: row.account_id, workspaceId: row.workspace_id, csrfToken: row.csrf_token, expiresAt: toIso(row.expires_at) } : null;
    },

    async setSessionWorkspace(tokenHash: string, workspaceId: string): Promise<void> {
      await db.updateTable('dashboard_sessions').set({ workspace_id: workspaceId }).where('token_hash', '=', tokenHash).execute();
    },

    async deleteSession(tokenHash: string): Promise<void> {
      await db.deleteFrom('dashboard_sessions').where('token_hash', '=', tokenHash).execute();
    },

    /** Every session of the account but the one kept (after a password change), and expired ones. */
    async deleteOtherSessions(accountId: string, keepHash: string | null, now: string): Promise<void> {
      let query = db.deleteFrom('dashboard_sessions').where('account_id', '=', accountId);
      if (keepHash) query = query.where('token_hash', '<>', keepHash);
      await query.execute();
      await db.deleteFrom('dashboard_sessions').where('expires_at', '<=', now).execute();
    },

    async insertLink(row: { tokenHash: string; accountId: string; now: string; expiresAt: string }): Promise<void> {
      await db
        .insertInto('password_links')
        .values({ token_hash: row.tokenHash, account_id: row.accountId, created_at: row.now, expires_at: row.expiresAt, used_at: null })
        .execute();
    },

    async linkAccount(tokenHash: string, now: string): Promise<string | null> {
      const row = await db
        .selectFrom('password_links')
        .select('account_id')
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row?.account_id ?? null;
    },

    /** Marks the link used; false when another request used it first. */
    async useLink(tokenHash: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('password_links')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

export type DashboardStore = ReturnType<typeof dashboardStore>;
