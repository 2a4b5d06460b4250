// Which key seals this server's secrets: INTAKE_SECRET_KEY, else the key file in the data directory
// (outside the database, so outside every backup of it), made 0600 on the first start of a new
// database. A process whose key is not the one the database's secrets are sealed with, or that has
// none although they are sealed, refuses to start with a message saying which key it needs: several
// processes never go on with different keys (PostgreSQL across machines: set INTAKE_SECRET_KEY).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { FILE_MODE, privateDir, privateIfPresent } from '../db/file-modes.ts';
import { KEY_BYTES, parseKey, SecretKeyError, sealedKeyId, secretBox, type SecretBox } from './box.ts';
import type { SecretCheckStore } from './store.ts';

export const KEY_FILE = 'secret.key';
const CHECK_TEXT = 'intake secret key check';

function readKeyFile(file: string): Buffer | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const key = parseKey(text);
  if (!key) throw new SecretKeyError(`${file} does not hold a secret key (32 bytes in base64 or hex)`);
  return key;
}

/**
 * Writes a new key to `file`, or reads the one another process wrote first: the key is written whole
 * to a file of this process, then linked to the name, which fails if it exists.
 */
function createKeyFile(file: string): { key: Buffer; made: boolean } {
  const own = `${file}.new-${process.pid}`;
  fs.writeFileSync(own, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: FILE_MODE, flag: 'w' });
  fs.chmodSync(own, FILE_MODE);
  let made = true;
  try {
    fs.linkSync(own, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    made = false;
  } finally {
    fs.rmSync(own, { force: true });
  }
  return { key: readKeyFile(file) as Buffer, made };
}

export interface OpenedKey {
  box: SecretBox;
  notices: string[];
}

export async function openSecretKey(config: { secretKey: string | null; dataDir: string }, store: SecretCheckStore): Promise<OpenedKey> {
  const file = path.join(config.dataDir, KEY_FILE);
  const source = config.secretKey ? 'INTAKE_SECRET_KEY' : file;
  const notices: string[] = [];
  let check = await store.read();
  let key = config.secretKey ? parseKey(config.secretKey) : null;
  if (!key && !config.secretKey) {
    notices.push(...privateIfPresent(file));
    key = readKeyFile(file);
  }
  let created = false;
  if (!key) {
    if (check) {
      throw new SecretKeyError(`this database's secrets are sealed with key ${sealedKeyId(check)}, and this process has no key: `
        + `set INTAKE_SECRET_KEY to that key, or put its key file at ${file}`);
    }
    notices.push(...privateDir(config.dataDir));
    ({ key, made: created } = createKeyFile(file));
  }
  const box = secretBox(key);
  if (!check && !(await store.insert(box.seal(CHECK_TEXT)))) check = await store.read();
  if (check) {
    let opened: string | null = null;
    try {
      opened = box.open(check);
    } catch {
      // Told below, with what to do.
    }
    if (opened !== CHECK_TEXT) {
      if (created) fs.rmSync(file, { force: true });
      throw new SecretKeyError(`${source} holds key ${box.keyId}, but this database's secrets are sealed with key ${sealedKeyId(check)}: `
        + 'give every process the same key (INTAKE_SECRET_KEY, or one shared key file)');
    }
  }
  if (created) notices.push(`made a new secret key in ${file}: keep a copy apart from the database's backups (docs/data.md)`);
  return { box, notices };
}
