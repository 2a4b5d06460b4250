// Owner accounts, their API keys and their AI-credit figures.
import type { Config, Plan } from '../config.ts';
import { KEY_SCOPES, type Account, type AccountStore, type ApiKeyRecord, type KeyScope } from './store.ts';
import { creditPeriod } from './credits.ts';
import { hashSecret, newSecret } from './secrets.ts';
import { InputError } from './input-error.ts';
import { identityEmail } from '../forms/email-address.ts';
import type { Role } from '../db/tables.ts';

/**
 * The principal of a request (docs/teams.md): the workspace (`account`, which every object belongs to),
 * the person acting in it with their current role, and the key or grant they act through.
 */
export interface Owner {
  account: Account;
  keyId: string;
  keyName: string;
  scope: KeyScope;
  personId: string;
  role: Role;
  /** The member's email, for the audit log. */
  memberEmail?: string;
}

export interface CreditStatus {
  plan: Plan;
  /** `lifetime` for the free plan's one-time allowance, `YYYY-MM` (UTC) for a pro month. */
  period: string;
  allowance: number;
  used: number;
  remaining: number;
  /** Pro only: the month's allowance is spent and further use is metered. */
  metered: boolean;
  meteredUsage: number;
}

const KEY_PREFIX = 'ik_';
/** Writing last_used_at on every request would make every read a write; a minute's precision is enough. */
const TOUCH_INTERVAL_MS = 60_000;
export const LANGUAGE = /^[a-z]{2}$/;

export function accountService(store: AccountStore, config: Config, clock: () => Date = () => new Date()) {
  return {
    /**
     * `secondAccount: 'refuse'` (the CLI without --new-account): an email that has no account yet, on a
     * server that has one, is more often a typo or a different address than a wish for a second,
     * separate owner who sees none of the first one's forms.
     */
    async createKey(input: {
      email: string;
      name: string;
      scope?: string;
      secondAccount?: 'allow' | 'refuse';
      /** A member's key on the workspace of `email` (docs/teams.md): it acts with that member's role. */
      personId?: string;
    }): Promise<{ key: string; id: string; account: Account; scope: KeyScope; accountCreated: boolean }> {
      const email = identityEmail(input.email);
      const name = input.name.trim();
      const scope = KEY_SCOPES.find((s) => s === (input.scope ?? 'full'));
      if (!email) throw new InputError(`not an email address: "${input.email}"`);
      if (name.length < 1 || name.length > 100) throw new InputError('a key name needs 1 to 100 characters');
      if (!scope) throw new InputError(`a key's scope is ${KEY_SCOPES.join(' or ')}, not "${input.scope}"`);
      const now = clock().toISOString();
      const existing = await store.findByEmail(email);
      if (!existing && input.secondAccount === 'refuse') {
        const others = await store.someEmails(3);
        if (others.length > 0) {
          throw new InputError(
            `No account has the email ${email}; this server's ${others.length > 1 ? 'accounts are' : 'account is'} ${others.join(', ')}. ` +
              `Give that email for a key of that account, or add --new-account to create a second, separate account (it sees none of the other accounts' forms).`,
          );
        }
      }
      const account = existing ?? (await store.ensure(email, now));
      const key = newSecret(KEY_PREFIX);
      const personId = input.personId && input.personId !== account.id ? input.personId : undefined;
      // The operator's key for an email (the CLI): that account's own workspace, even for a login that
      // so far only joined others' (docs/teams.md).
      if (!personId) await store.ownWorkspace(account, now);
      const id = await store.insertKey({ accountId: account.id, name, hash: hashSecret(key), prefix: key.slice(0, 10), scope, now, personId });
      return { key, id, account, scope, accountCreated: !existing };
    },

    listKeys(email?: string): Promise<ApiKeyRecord[]> {
      return store.listKeys(email?.trim().toLowerCase());
    },

    revokeKey(id: string): Promise<boolean> {
      return store.revokeKey(id, clock().toISOString());
    },

    setPlan(email: string, plan: Plan): Promise<boolean> {
      return store.setPlan(email.trim().toLowerCase(), plan);
    },

    find(email: string): Promise<Account | null> {
      return store.findByEmail(email.trim().toLowerCase());
    },

    /** The language submissions are translated into, for the account of that email. */
    async setLanguage(email: string, language: string): Promise<boolean> {
      if (!LANGUAGE.test(language)) throw new InputError(`not an ISO 639-1 language code: "${language}"`);
      const account = await store.findByEmail(email.trim().toLowerCase());
      return account ? store.setLanguage(account.id, language) : false;
    },

    /** Where submitters' answers to smart replies go; null: the account's own email. */
    setReplyTo(accountId: string, address: string | null): Promise<void> {
      return store.setReplyTo(accountId, address);
    },

    setAccountLanguage(accountId: string, language: string): Promise<boolean> {
      return store.setLanguage(accountId, language);
    },

    /** The owner of an active key, or null for an unknown or revoked one. */
    async authenticate(token: string): Promise<Owner | null> {
      const found = await store.findActiveKeyOwner(hashSecret(token));
      if (!found) return null;
      const now = clock();
      if (!found.lastUsedAt || now.getTime() - Date.parse(found.lastUsedAt) > TOUCH_INTERVAL_MS) {
        await store.touchKey(found.keyId, now.toISOString());
      }
      return { account: found.account, keyId: found.keyId, keyName: found.keyName, scope: found.scope, personId: found.personId, role: found.role, memberEmail: found.memberEmail };
    },

    async credits(account: Account): Promise<CreditStatus> {
      const pro = account.plan === 'pro';
      const { period, allowance } = creditPeriod(account.plan, config, clock());
      const used = await store.creditsUsed(account.id, period);
      return {
        plan: account.plan,
        period,
        allowance,
        used,
        remaining: Math.max(0, allowance - used),
        metered: pro && used >= allowance,
        meteredUsage: pro ? Math.max(0, used - allowance) : 0,
      };
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
