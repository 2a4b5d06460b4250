// The only code that reads and writes CAPTCHA state: the server's ALTCHA signing key and the
// ALTCHA solutions already accepted.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/values.ts';
import type { SecretBox } from '../secrets/box.ts';

const KEY_SETTING = 'altcha_hmac_key';

/** `box` seals the signing key at rest: whoever reads the database or a backup cannot forge challenges. */
export function captchaStore(db: Db, box: SecretBox) {
  return {
    /**
     * The key ALTCHA challenges are signed with: made once, the first time any process asks, and kept,
     * so every process and every restart checks with the same. Two processes starting at once both
     * insert; the first wins and both read its key. The one place that reads it, so that encrypting
     * server secrets at rest changes this function only.
     */
    async altchaKey(now: string): Promise<string> {
      const read = async () => {
        const stored = (await db.selectFrom('server_settings').select('value').where('name', '=', KEY_SETTING).executeTakeFirst())?.value;
        return stored ? box.open(stored) : undefined;
      };
      const existing = await read();
      if (existing) return existing;
      await db.insertInto('server_settings').values({ name: KEY_SETTING, value: box.seal(randomBytes(32).toString('hex')), updated_at: now })
        .onConflict((oc) => oc.column('name').doNothing()).execute();
      const key = await read();
      if (!key) throw new Error('the ALTCHA key could not be stored');
      return key;
    },

    /** Records a solution as used; false when it was already (the primary key decides, whatever the process). */
    async spend(challengeId: string, expiresAt: string): Promise<boolean> {
      try {
        await db.insertInto('captcha_solutions').values({ challenge_id: challengeId, expires_at: expiresAt }).execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /** Forgets solutions whose challenge has expired: they fail on their expiry now, whoever sends them. */
    async purgeExpired(now: string): Promise<number> {
      const result = await db.deleteFrom('captcha_solutions').where('expires_at', '<', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type CaptchaStore = ReturnType<typeof captchaStore>;
