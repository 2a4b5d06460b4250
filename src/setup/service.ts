// First-run set-up that only the operator can complete. On a new server the set-up page works only
// with a one-time token from a link that the server prints on its terminal at start (and that
// `intake setup-link` prints afresh): whoever can read that terminal runs the server. Set-up closes
// for good the first time any account gets a password or a set-password link, by the page or the
// CLI; the account that closes it is the operator, who alone sees server-wide figures.
import { hashSecret, newSecret } from '../accounts/secrets.ts';
import type { SetupStore } from './store.ts';

export const SETUP_LINK_HOURS = 24;
const MAX_TOKEN_LENGTH = 200;

export function setupService(deps: { store: SetupStore; clock?: () => Date }) {
  const { store } = deps;
  const clock = deps.clock ?? (() => new Date());
  const now = () => clock().toISOString();

  return {
    async isClosed(): Promise<boolean> {
      return (await store.setting('setup_closed_at')) !== null;
    },

    /** A new one-time token for the set-up page; null once set-up is closed. */
    async newToken(): Promise<{ token: string; hours: number } | null> {
      if (await this.isClosed()) return null;
      const token = newSecret('', 32);
      const issued = clock();
      await store.insertToken({
        tokenHash: hashSecret(token),
        now: issued.toISOString(),
        expiresAt: new Date(issued.getTime() + SETUP_LINK_HOURS * 3_600_000).toISOString(),
      });
      return { token, hours: SETUP_LINK_HOURS };
    },

    async tokenIsValid(token: string): Promise<boolean> {
      if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return false;
      return !(await this.isClosed()) && (await store.tokenExists(hashSecret(token), now()));
    },

    /**
     * Uses the token and closes set-up, both at once or neither: true when this call did both. Two
     * tokens used at the same moment still make one operator, since only one call can close set-up.
     */
    async claim(token: string, operatorAccountId: () => Promise<string>): Promise<boolean> {
      if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return false;
      if (!(await store.takeToken(hashSecret(token), now()))) return false;
      if (!(await store.settleSetting('setup_closed_at', now(), now()))) return false;
      await store.deleteAllTokens();
      await store.settleSetting('operator_account_id', await operatorAccountId(), now());
      return true;
    },

    /** Set-up is over: an account got a password or a set-password link some other way (the CLI, sign-up). */
    async close(accountId: string): Promise<void> {
      if (await store.settleSetting('setup_closed_at', now(), now())) await store.deleteAllTokens();
      await store.settleSetting('operator_account_id', accountId, now());
    },

    /**
     * Where `intake serve` listens, recorded at each start: `intake setup-link` in another terminal
     * prints a link to it even when PORT was set only in the server's environment.
     */
    async recordServedUrl(url: string): Promise<void> {
      await store.putSetting('served_url', url, now());
    },

    servedUrl(): Promise<string | null> {
      return store.setting('served_url');
    },

    /** The operator's account, whose audit log is the server's (a workspace's deletion is recorded there); null before set-up closed. */
    operatorAccountId: (): Promise<string | null> => store.setting('operator_account_id'),

    async isOperator(accountId: string): Promise<boolean> {
      return (await store.setting('operator_account_id')) === accountId;
    },
  };
}

export type SetupService = ReturnType<typeof setupService>;
