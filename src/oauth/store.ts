// The only code that reads and writes oauth_records: oidc-provider's storage adapter (one table,
// both engines), the server's keys, and the owner's connected apps.
import type { Db } from '../db/database.ts';
import { isUniqueViolation, toIso, toIsoOrNull } from '../db/values.ts';
import { byCodeUnits } from '../text-order.ts';
import { isSealed, type SecretBox } from '../secrets/box.ts';

type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; accountId?: string; consumed?: number };

export interface ConnectedApp {
  grantId: string;
  clientId: string;
  clientName: string;
  redirectHost: string;
  scope: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const KEYS_MODEL = 'IntakeServerKeys';

/** `box` seals the server's keys (its token signing key and cookie keys) in their row. */
export function oauthStore(db: Db, box: SecretBox, clock: () => Date = () => new Date()) {
  const now = () => clock().toISOString();

  async function find(model: string, id: string): Promise<Payload | undefined> {
    const row = await db.selectFrom('oauth_records').select(['payload', 'expires_at', 'consumed_at'])
      .where('model', '=', model).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    if (row.expires_at !== null && toIso(row.expires_at) <= now()) return undefined;
    const payload = JSON.parse(row.payload) as Payload;
    if (row.consumed_at !== null) payload.consumed = Math.floor(Date.parse(toIso(row.consumed_at)) / 1000);
    return payload;
  }

  return {
    /** The adapter oidc-provider is given: a class whose instances each serve one model (Client, Grant, AccessToken…). */
    adapterFor(model: string) {
      return {
        async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
          const values = {
            payload: JSON.stringify(payload),
            grant_id: payload.grantId ?? null,
            uid: payload.uid ?? null,
            user_code: payload.userCode ?? null,
            account_id: payload.accountId ?? null,
            expires_at: expiresIn ? new Date(clock().getTime() + expiresIn * 1000).toISOString() : null,
          };
          await db.insertInto('oauth_records').values({ model, id, ...values })
            .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(values)).execute();
        },
        find: (id: string) => find(model, id),
        async findByUid(uid: string) {
          const row = await db.selectFrom('oauth_records').select('id').where('model', '=', model).where('uid', '=', uid).executeTakeFirst();
          return row ? find(model, row.id) : undefined;
        },
        async findByUserCode(userCode: string) {
          const row = await db.selectFrom('oauth_records').select('id').where('model', '=', model).where('user_code', '=', userCode).executeTakeFirst();
          return row ? find(model, row.id) : undefined;
        },
        async consume(id: string): Promise<void> {
          await db.updateTable('oauth_records').set({ consumed_at: now() }).where('model', '=', model).where('id', '=', id).execute();
        },
        async destroy(id: string): Promise<void> {
          await db.deleteFrom('oauth_records').where('model', '=', model).where('id', '=', id).execute();
        },
        async revokeByGrantId(grantId: string): Promise<void> {
          await db.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();
        },
      };
    },

    /**
     * The server's signing keys and cookie keys, made by `generate` the first time and kept: every
     * process (and every restart) signs and checks with the same. Two processes starting at once
     * both try to insert; the first wins and both use its keys. They are kept sealed (a row from
     * before sealing reads in clear until sealClear seals it).
     */
    async serverKeys<T>(generate: () => Promise<T>): Promise<T> {
      const read = async () => {
        const row = await db.selectFrom('oauth_records').select('payload').where('model', '=', KEYS_MODEL).where('id', '=', 'current').executeTakeFirst();
        return row ? (JSON.parse(box.open(row.payload)) as T) : undefined;
      };
      const existing = await read();
      if (existing) return existing;
      try {
        await db.insertInto('oauth_records').values({ model: KEYS_MODEL, id: 'current', payload: box.seal(JSON.stringify(await generate())) }).execute();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      return (await read()) as T;
    },

    /** Seals the server's keys if a start before sealing stored them in clear; returns 1 when it did. */
    async sealClear(): Promise<number> {
      const row = await db.selectFrom('oauth_records').select('payload').where('model', '=', KEYS_MODEL).where('id', '=', 'current').executeTakeFirst();
      if (!row || isSealed(row.payload)) return 0;
      const result = await db.updateTable('oauth_records').set({ payload: box.seal(row.payload) })
        .where('model', '=', KEYS_MODEL).where('id', '=', 'current').where('payload', '=', row.payload).executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** An owner's grants to apps, newest first, with what the app registered and its last call. */
    async connectedApps(accountId: string): Promise<ConnectedApp[]> {
      const grants = await db.selectFrom('oauth_records').select(['id', 'payload', 'last_used_at'])
        .where('model', '=', 'Grant').where('account_id', '=', accountId)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now())]))
        .execute();
      const apps: ConnectedApp[] = [];
      for (const grant of grants) {
        const payload = JSON.parse(grant.payload) as { clientId: string; iat?: number; resources?: Record<string, string> };
        const client = await find('Client', payload.clientId);
        if (!client) continue;
        const redirect = (client.redirect_uris as string[] | undefined)?.[0];
        apps.push({
          grantId: grant.id,
          clientId: payload.clientId,
          clientName: typeof client.client_name === 'string' ? client.client_name : payload.clientId,
          redirectHost: redirect ? new URL(redirect).host : '',
          scope: Object.values(payload.resources ?? {}).join(' '),
          createdAt: new Date((payload.iat ?? 0) * 1000).toISOString(),
          lastUsedAt: toIsoOrNull(grant.last_used_at),
        });
      }
      return apps.sort((a, b) => byCodeUnits(b.createdAt, a.createdAt));
    },

    async grantOwner(grantId: string): Promise<string | null> {
      const row = await db.selectFrom('oauth_records').select('account_id').where('model', '=', 'Grant').where('id', '=', grantId).executeTakeFirst();
      return row?.account_id ?? null;
    },

    /** Revokes a grant: it, its codes, and its access and refresh tokens are gone at once. */
    async revokeGrant(grantId: string): Promise<void> {
      await db.deleteFrom('oauth_records').where((eb) => eb.or([eb('grant_id', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])])).execute();
    },

    async touchGrant(grantId: string, at: string): Promise<void> {
      await db.updateTable('oauth_records').set({ last_used_at: at }).where('model', '=', 'Grant').where('id', '=', grantId).execute();
    },

    async grantLastUsed(grantId: string): Promise<string | null> {
      const row = await db.selectFrom('oauth_records').select('last_used_at').where('model', '=', 'Grant').where('id', '=', grantId).executeTakeFirst();
      return row ? toIsoOrNull(row.last_used_at) : null;
    },

    /** Expired records are useless to the provider; they are removed now and then. */
    async removeExpired(): Promise<void> {
      await db.deleteFrom('oauth_records').where('expires_at', '<', now()).execute();
    },
  };
}

export type OauthStore = ReturnType<typeof oauthStore>;
