// Sealing of the secrets the server must use again (webhook signing secrets, chat webhook URLs,
// Telegram bot tokens, the OAuth server's keys), so a copy of the database alone gives none of them.
// AES-256-GCM from node:crypto: a random 96-bit nonce per value, the 128-bit tag checked on open.
// Layout of a sealed value: "sealed:v1:<key id>:<base64url of nonce ‖ ciphertext ‖ tag>", where the
// key id (the first 8 hex digits of the key's SHA-256) names the key without giving it away, so that
// a value sealed with another key is told apart from a damaged one in the error.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'sealed:v1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

/** A key that cannot open what the database holds; the message says what to do, and names no secret. */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

/** The 32 key bytes from base64 (what `openssl rand -base64 32` prints) or 64 hex digits; null when it is neither. */
export function parseKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === KEY_BYTES ? bytes : null;
}

export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

export interface SecretBox {
  /** The id of this box's key, as sealed values name it. */
  keyId: string;
  seal(plain: string): string;
  /** The plain value; a value stored before sealing (no prefix) comes back as it is. Throws SecretKeyError. */
  open(stored: string): string;
  /** A key for another use (signing file links), derived from this one: HMAC-SHA256(key, purpose). */
  derive(purpose: string): Buffer;
}

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new SecretKeyError(`a secret key has ${KEY_BYTES} bytes, not ${key.length}`);
  const id = keyId(key);
  return {
    keyId: id,
    derive: (purpose) => createHmac('sha256', key).update(`intake:${purpose}`).digest(),
    seal(plain) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const sealed = Buffer.concat([nonce, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${PREFIX}${id}:${sealed.toString('base64url')}`;
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const [storedId, body] = stored.slice(PREFIX.length).split(':');
      if (storedId !== id) {
        throw new SecretKeyError(`a stored secret was sealed with key ${storedId}, but this server's key is ${id}: set INTAKE_SECRET_KEY (or the key file) to the key it was sealed with`);
      }
      const bytes = Buffer.from(body ?? '', 'base64url');
      if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new SecretKeyError(`a stored secret sealed with key ${id} is damaged`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretKeyError(`a stored secret sealed with key ${id} is damaged or was changed`);
      }
    },
  };
}

/** The id of the key a sealed value names; null for a value in clear. */
export function sealedKeyId(value: string): string | null {
  return isSealed(value) ? (value.slice(PREFIX.length).split(':')[0] ?? null) : null;
}
