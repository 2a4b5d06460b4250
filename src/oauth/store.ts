// The only code that reads and writes oauth_records: oidc-provider's storage adapter (one table,
// both engines), the server's keys, and the owner's connected apps.
import { hashSecret } from '../accounts/secrets.ts';
import type { Db } from '../db/database.ts';
import { isUniqueViolation, toIso, toIsoOrNull } from '../db/values.ts';
import { byCodeUnits } from '../text-order.ts';
import { isSealed, type SecretBox } from '../secrets/box.ts';

type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; accountId?: string; consumed?: number; clientId?: string; jti?: string };

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
/** A registered client that no owner allowed within a day is dropped: registration is open to anyone. */
export const UNUSED_CLIENT_SECONDS = 86_400;

/**
 * Models whose ids are not credentials: a client's id is public, a grant's id names it on the
 * Integrations page and in the audit log. Every other model's id is a bearer credential (access and
 * refresh tokens, authorization codes, the provider's session and interaction cookies), kept only
 * as its SHA-256, like API keys: the database file or a backup holds nothing a caller could
 * present. The ids carry at least 128 random bits, so a fast unsalted hash is enough.
 */
const CLEAR_ID_MODELS = new Set(['Client', 'Grant']);
const storedId = (model: string, id: string) => (CLEAR_ID_MODELS.has(model) ? id : hashSecret(id));

/** What is written of a payload: for hashed models, without the id itself (the payload repeats it as `jti`). */
function storedPayload(model: string, payload: Payload): Payload {
  if (CLEAR_ID_MODELS.has(model)) return payload;
  const { jti: _jti, ...rest } = payload;
  // An interaction names its browser session, cookie value included (oidc-provider never reads it back).
  if (model === 'Interaction' && rest.session && typeof rest.session === 'object') {
    const { cookie: _cookie, ...session } = rest.session as Record<string, unknown>;
    rest.session = session;
  }
  return rest;
}

/** `box` seals the server's keys (its token signing key and cookie keys) in their row. */
export function oauthStore(db: Db, box: SecretBox, clock: () => Date = () => new Date()) {
  const now = () => clock().toISOString();

  /** The record stored under `key` (the id, or its hash); `id`, when known, goes back into the payload. */
  async function read(model: string, key: string, id?: string): Promise<Payload | undefined> {
    const row = await db.selectFrom('oauth_records').select(['payload', 'expires_at', 'consumed_at'])
      .where('model', '=', model).where('id', '=', key).executeTakeFirst();
    if (!row) return undefined;
    if (row.expires_at !== null && toIso(row.expires_at) <= now()) return undefined;
    const payload = JSON.parse(row.payload) as Payload;
    if (id !== undefined && !CLEAR_ID_MODELS.has(model)) payload.jti = id;
    if (row.consumed_at !== null) payload.consumed = Math.floor(Date.parse(toIso(row.consumed_at)) / 1000);
    return payload;
  }
  const find = (model: string, id: string) => read(model, storedId(model, id), id);

  return {
    /** The adapter oidc-provider is given: a class whose instances each serve one model (Client, Grant, AccessToken…). */
    adapterFor(model: string) {
      return {
        async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
          const key = storedId(model, id);
          const values = {
            payload: JSON.stringify(storedPayload(model, payload)),
            grant_id: payload.grantId ?? null,
            uid: payload.uid ?? null,
            user_code: payload.userCode ?? null,
            account_id: payload.accountId ?? null,
            expires_at: expiresIn ? new Date(clock().getTime() + expiresIn * 1000).toISOString() : null,
          };
          // A client registers with no expiry from the provider: it gets a day to be allowed by an
          // owner; the first grant made for it lifts the limit (below). Re-saving keeps its expiry.
          const inserted = model === 'Client' ? { ...values, expires_at: new Date(clock().getTime() + UNUSED_CLIENT_SECONDS * 1000).toISOString() } : values;
          const { expires_at: _keep, ...updated } = values;
          await db.insertInto('oauth_records').values({ model, id: key, ...inserted })
            .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(model === 'Client' ? updated : values)).execute();
          if (model === 'Grant' && payload.clientId) {
            await db.updateTable('oauth_records').set({ expires_at: null }).where('model', '=', 'Client').where('id', '=', payload.clientId).execute();
          }
        },
        find: (id: string) => find(model, id),
        // Looked up by a column, the clear id is unknown: the payload comes back without it (oidc-provider
        // reads only the account of a session found by uid).
        async findByUid(uid: string) {
          const row = await db.selectFrom('oauth_records').select('id').where('model', '=', model).where('uid', '=', uid).executeTakeFirst();
          return row ? read(model, row.id) : undefined;
        },
        async findByUserCode(userCode: string) {
          const row = await db.selectFrom('oauth_records').select('id').where('model', '=', model).where('user_code', '=', userCode).executeTakeFirst();
          return row ? read(model, row.id) : undefined;
        },
        async consume(id: string): Promise<void> {
          await db.updateTable('oauth_records').set({ consumed_at: now() }).where('model', '=', model).where('id', '=', storedId(model, id)).execute();
        },
        async destroy(id: string): Promise<void> {
          await db.deleteFrom('oauth_records').where('model', '=', model).where('id', '=', storedId(model, id)).execute();
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
      const grants = await db.selectFrom('oauth_records').select(['id', 'payload', 'last_used_at', 'redirect_uri'])
        .where('model', '=', 'Grant').where('account_id', '=', accountId)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now())]))
        .execute();
      const apps: ConnectedApp[] = [];
      for (const grant of grants) {
        const payload = JSON.parse(grant.payload) as { clientId: string; iat?: number; resources?: Record<string, string> };
        const client = await find('Client', payload.clientId);
        if (!client) continue;
        // The redirect URI the owner consented through; grants older than migration 0026 show the client's first.
        const redirect = grant.redirect_uri ?? (client.redirect_uris as string[] | undefined)?.[0];
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

    /** Records the redirect URI the owner consented through, for the Integrations page. */
    async setGrantRedirect(grantId: string, redirectUri: string): Promise<void> {
      await db.updateTable('oauth_records').set({ redirect_uri: redirectUri }).where('model', '=', 'Grant').where('id', '=', grantId).execute();
    },

    /** Ends an account's provider sessions in every browser (after a password change). */
    async removeSessionsOf(accountId: string): Promise<void> {
      await db.deleteFrom('oauth_records').where('model', '=', 'Session').where('account_id', '=', accountId).execute();
    },

    async touchGrant(grantId: string, at: string): Promise<void> {
      await db.updateTable('oauth_records').set({ last_used_at: at }).where('model', '=', 'Grant').where('id', '=', grantId).execute();
    },

    async grantLastUsed(grantId: string): Promise<string | null> {
      const row = await db.selectFrom('oauth_records').select('last_used_at').where('model', '=', 'Grant').where('id', '=', grantId).executeTakeFirst();
      return row ? toIsoOrNull(row.last_used_at) : null;
    },

    /**
     * Expired records (codes, tokens, interactions, sessions, clients never allowed) are useless to
     * the provider; the retention run removes them on its schedule. Returns how many went.
     */
    async removeExpired(): Promise<number> {
      const result = await db.deleteFrom('oauth_records').where('expires_at', '<', now()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type OauthStore = ReturnType<typeof oauthStore>;
