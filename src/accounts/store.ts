// The only code that reads and writes accounts, API keys and credit usage.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Role } from '../db/tables.ts';
import type { Db } from '../db/database.ts';
import { toCount, toIso, toIsoOrNull } from '../db/values.ts';
import { accountSubmissionsTotal } from '../db/counter-shards.ts';
import type { Plan } from '../config.ts';

export interface Account {
  id: string;
  email: string;
  plan: Plan;
  /** ISO 639-1; submissions are translated into it. */
  language: string;
  /** Where answers to smart replies go; null: `email`. */
  replyToEmail: string | null;
  submissionsTotal: number;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  email: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  scope: KeyScope;
  /** Whose key it is (docs/teams.md): the member's person, or the workspace's own account. */
  personId: string;
}

/** `full`: everything the owner can do; `read`: reads only, on every surface. */
export type KeyScope = 'full' | 'read';
export const KEY_SCOPES: readonly KeyScope[] = ['full', 'read'];

export interface KeyOwner {
  keyId: string;
  keyName: string;
  scope: KeyScope;
  lastUsedAt: string | null;
  account: Account;
  personId: string;
  role: Role;
  memberId: string;
  memberEmail: string;
}

type AccountRow = { id: string; email: string; plan: Plan; language: string; reply_to_email: string | null; submissions_total: number | string; counted_submissions: number | string; created_at: string | Date };

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    plan: row.plan,
    language: row.language,
    replyToEmail: row.reply_to_email,
    submissionsTotal: toCount(row.counted_submissions),
    createdAt: toIso(row.created_at),
  };
}

async function ownWorkspace(db: Db, account: Account, now: string): Promise<void> {
  await db
    .insertInto('workspace_members')
    .values({ id: account.id, workspace_id: account.id, person_id: account.id, email: account.email, role: 'owner', status: 'active', created_at: now, accepted_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export function accountStore(db: Db) {
  /** Creates the account unless one with that email exists; either way returns it, and whether it is new. */
  async function insertIfNew(email: string, now: string): Promise<{ account: Account; created: boolean }> {
    const id = randomUUID();
    await db
      .insertInto('accounts')
      .values({ id, email, plan: 'free', submissions_total: 0, created_at: now })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
    const row = await db.selectFrom('accounts').selectAll().select(accountSubmissionsTotal('accounts').as('counted_submissions')).where('email', '=', email).executeTakeFirst();
    if (!row) throw new Error(`account ${email} vanished after insert`);
    return { account: toAccount(row), created: row.id === id };
  }

  return {
    async findByEmail(email: string): Promise<Account | null> {
      const row = await db.selectFrom('accounts').selectAll().select(accountSubmissionsTotal('accounts').as('counted_submissions')).where('email', '=', email).executeTakeFirst();
      return row ? toAccount(row) : null;
    },

    async findById(id: string): Promise<Account | null> {
      const row = await db.selectFrom('accounts').selectAll().select(accountSubmissionsTotal('accounts').as('counted_submissions')).where('id', '=', id).executeTakeFirst();
      return row ? toAccount(row) : null;
    },

    /** Up to `limit` account emails, the oldest first: for naming the accounts a refusal could mean. */
    async someEmails(limit: number): Promise<string[]> {
      const rows = await db.selectFrom('accounts').select('email').orderBy('created_at').orderBy('email').limit(limit).execute();
      return rows.map((r) => r.email);
    },

    /** Creates the account unless one with that email exists; either way returns it. */
    async ensure(email: string, now: string): Promise<Account> {
      const { account, created } = await insertIfNew(email, now);
      // A new account is a workspace with its person as owner (docs/teams.md); an existing one keeps what it is.
      if (created) await ownWorkspace(db, account, now);
      return account;
    },

    /** The row of a person invited to another workspace: a login, no workspace (no member row on it). */
    async ensurePerson(email: string, now: string): Promise<Account> {
      return (await insertIfNew(email, now)).account;
    },

    /** Makes an account the owner of itself (a person-only row asked for a key of its own). */
    ownWorkspace: (account: Account, now: string) => ownWorkspace(db, account, now),

    async setPlan(email: string, plan: Plan): Promise<boolean> {
      const result = await db.updateTable('accounts').set({ plan }).where('email', '=', email).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async setReplyTo(id: string, address: string | null): Promise<void> {
      await db.updateTable('accounts').set({ reply_to_email: address }).where('id', '=', id).execute();
    },

    async setLanguage(id: string, language: string): Promise<boolean> {
      const result = await db.updateTable('accounts').set({ language }).where('id', '=', id).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async insertKey(key: { accountId: string; name: string; hash: string; prefix: string; scope: KeyScope; now: string; personId?: string }): Promise<string> {
      const id = randomUUID();
      await db
        .insertInto('api_keys')
        .values({ id, account_id: key.accountId, name: key.name, key_hash: key.hash, key_prefix: key.prefix, scope: key.scope, created_at: key.now, person_id: key.personId ?? null })
        .execute();
      return id;
    },

    async listKeys(email?: string): Promise<ApiKeyRecord[]> {
      let query = db
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .select([
          'api_keys.id', 'api_keys.account_id', 'accounts.email', 'api_keys.name', 'api_keys.key_prefix',
          'api_keys.created_at', 'api_keys.last_used_at', 'api_keys.revoked_at', 'api_keys.scope', 'api_keys.person_id',
        ])
        .orderBy('api_keys.created_at');
      if (email) query = query.where('accounts.email', '=', email);
      const rows = await query.execute();
      return rows.map((r) => ({
        id: r.id,
        accountId: r.account_id,
        email: r.email,
        name: r.name,
        prefix: r.key_prefix,
        createdAt: toIso(r.created_at),
        lastUsedAt: toIsoOrNull(r.last_used_at),
        revokedAt: toIsoOrNull(r.revoked_at),
        scope: r.scope,
        personId: r.person_id ?? r.account_id,
      }));
    },

    async revokeKey(id: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The key's workspace and its member's current role: a key whose member is gone finds nothing. */
    async findActiveKeyOwner(hash: string): Promise<KeyOwner | null> {
      const row = await db
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .innerJoin('workspace_members as m', (join) =>
          join.onRef('m.workspace_id', '=', 'api_keys.account_id').on(sql<boolean>`m.person_id = coalesce(api_keys.person_id, api_keys.account_id)`).on('m.status', '=', 'active'))
        .select([
          'api_keys.id as key_id', 'api_keys.name as key_name', 'api_keys.scope', 'api_keys.last_used_at', 'accounts.id', 'accounts.email', 'accounts.plan', 'accounts.language', 'accounts.reply_to_email',
          'accounts.submissions_total', 'accounts.created_at', accountSubmissionsTotal('accounts').as('counted_submissions'),
          'm.person_id', 'm.role', 'm.id as member_id', 'm.email as member_email',
        ])
        .where('api_keys.key_hash', '=', hash)
        .where('api_keys.revoked_at', 'is', null)
        .executeTakeFirst();
      if (!row || !row.person_id) return null;
      return {
        keyId: row.key_id, keyName: row.key_name, scope: row.scope, lastUsedAt: toIsoOrNull(row.last_used_at), account: toAccount(row),
        personId: row.person_id, role: row.role, memberId: row.member_id, memberEmail: row.member_email,
      };
    },

    async touchKey(id: string, now: string): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
    },

    async creditsUsed(accountId: string, period: string): Promise<number> {
      const row = await db
        .selectFrom('credit_usage')
        .select('used')
        .where('account_id', '=', accountId)
        .where('period', '=', period)
        .executeTakeFirst();
      return row ? toCount(row.used) : 0;
    },
  };
}

export type AccountStore = ReturnType<typeof accountStore>;
