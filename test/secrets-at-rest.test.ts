// Secrets at rest (issue 32, fault 4): what the server must use again is sealed in the database
// (webhook signing secrets, notification URLs, Telegram bot tokens, the OAuth server's keys), and
// found in clear neither in a select nor in the SQLite file's bytes; webhooks still verify; values
// stored in clear before still read and are sealed at the next start; a process with another key, or
// none, is refused with a message that names key ids only. On SQLite the data directory is 0700 and
// the database, its WAL and SHM, the key file, a backup and a restored database 0600 under umask 022.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../src/config.ts';
import { openDatabase, sqliteFile } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { backupSqlite, restoreSqlite } from '../src/backup/sqlite-backup.ts';
import { SecretKeyError } from '../src/secrets/box.ts';
import { KEY_FILE } from '../src/secrets/key.ts';
import { openSecrets } from '../src/services.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm, submit, startPipelineApp, waitFor, type PipelineApp } from './pipeline-helpers.ts';
import { ENGINE, RELAXED_ENV, createTestStore, startTestApp } from './helpers.ts';
import { CLI } from './cli.ts';

process.umask(0o022);

const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);
const SLACK_URL = `https://hooks.slack.com/services/T000/B000/${randomBytes(12).toString('hex')}`;
const BOT_TOKEN = `123456789:${randomBytes(18).toString('base64url')}`;
const FORM_SECRET = `own-secret-${randomBytes(8).toString('hex')}`;

/** Every stored text of the tables that hold secrets, as the database gives it. */
async function storedText(t: PipelineApp): Promise<string> {
  const { db } = t.database;
  const rows = await Promise.all([
    sql`select * from destinations`.execute(db),
    sql`select * from forms`.execute(db),
    sql`select * from oauth_records`.execute(db),
  ]);
  return JSON.stringify(rows.map((r) => r.rows));
}

/** The SQLite database's bytes with its WAL folded in. */
function fileBytes(t: PipelineApp): string {
  t.database.sqliteConnection!.exec('pragma wal_checkpoint(truncate)');
  const file = t.database.sqliteFile!;
  return fs.readFileSync(file).toString('latin1') + (fs.existsSync(`${file}-wal`) ? fs.readFileSync(`${file}-wal`).toString('latin1') : '');
}

describe('secrets at rest', () => {
  let t: PipelineApp;
  let receiver: FakeProvider;
  before(async () => {
    receiver = await startFakeProvider(() => ({ status: 200, body: { ok: true } }));
    t = await startPipelineApp({ INTAKE_OUTBOUND_ALLOW: '127.0.0.1', INTAKE_PUBLIC_URL: 'https://forms.example.com' });
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('seals webhook secrets, notification URLs, bot tokens and the OAuth signing key; webhooks still verify', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { webhook_enabled: true, webhook_url: `${receiver.url}/hook/form`, webhook_secret: FORM_SECRET });
    const post = (payload: object) => t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload });
    const webhook = await post({ type: 'webhook', url: `${receiver.url}/hook/api` });
    assert.equal(webhook.statusCode, 201, webhook.body);
    const secret = (webhook.json() as { secret: string }).secret;
    assert.equal((await post({ type: 'slack', url: SLACK_URL, enabled: false })).statusCode, 201);
    assert.equal((await post({ type: 'telegram', bot_token: BOT_TOKEN, chat_id: '42', enabled: false })).statusCode, 201);
    // The provider makes its keys on the first OAuth request; its JWKS gives the public half.
    const jwks = await t.request({ method: 'GET', url: '/oauth/jwks' });
    assert.equal(jwks.statusCode, 200, jwks.body);
    const publicKey = (jwks.json() as { keys: Array<{ n: string; kid: string }> }).keys[0]!;
    const keysRow = await sql<{ payload: string }>`select payload from oauth_records where model = 'IntakeServerKeys'`.execute(t.database.db);
    assert.match(keysRow.rows[0]!.payload, /^sealed:v1:/);

    const stored = await storedText(t);
    for (const clear of [secret, secret.slice('whsec_'.length), FORM_SECRET, SLACK_URL, BOT_TOKEN, `${receiver.url}/hook/api`, publicKey.n]) {
      assert.ok(!stored.includes(clear), `found in clear in the database: ${clear.slice(0, 20)}…`);
    }
    if (ENGINE === 'sqlite') {
      const bytes = fileBytes(t);
      for (const clear of [secret.slice('whsec_'.length), FORM_SECRET, SLACK_URL, BOT_TOKEN, publicKey.n]) assert.ok(!bytes.includes(clear), 'found in clear in the database file');
    }

    // The owner still sees the Slack URL, and both webhooks arrive signed with the secrets given.
    const listed = await t.request({ method: 'GET', url: `/api/forms/${form.id}/destinations`, headers: bearer(key) });
    assert.ok((listed.json() as { destinations: Array<{ url?: string }> }).destinations.some((d) => d.url === SLACK_URL));
    await submit(t, form.endpoint, { name: 'Ada', email: 'ada@example.com', message: 'hello there, a sealed test' });
    const arrived = (p: string) => waitFor(`a delivery to ${p}`, () => receiver.requests.find((r) => r.path === p));
    const api = await arrived('/hook/api');
    new Webhook(secret).verify(api.raw, api.headers as Record<string, string>);
    const own = await arrived('/hook/form');
    new Webhook(`whsec_${Buffer.from(FORM_SECRET, 'utf8').toString('base64')}`).verify(own.raw, own.headers as Record<string, string>);
  });

  it('reads values stored in clear before sealing, and seals them at the next start', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const created = await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload: { type: 'telegram', bot_token: BOT_TOKEN, chat_id: '7', enabled: false } });
    const id = (created.json() as { id: string }).id;
    // As a server before this change wrote it.
    await sql`update destinations set target = ${JSON.stringify({ bot_token: BOT_TOKEN, chat_id: '7' })} where id = ${id}`.execute(t.database.db);
    const owner = (await t.services.accounts.authenticate(key))!.account.id;
    assert.equal(((await t.services.destinations.get(owner, form.id, id)).target as { bot_token: string }).bot_token, BOT_TOKEN);

    const { notices } = await openSecrets(t.config, t.database);
    assert.ok(notices.some((n) => /sealed the secrets of 1 row/.test(n)), notices.join('; '));
    const row = await sql<{ target: unknown }>`select target from destinations where id = ${id}`.execute(t.database.db);
    assert.ok(!JSON.stringify(row.rows[0]!.target).includes(BOT_TOKEN));
    assert.equal(((await t.services.destinations.get(owner, form.id, id)).target as { bot_token: string }).bot_token, BOT_TOKEN);
  });

  it('refuses a process whose key is not the one the secrets are sealed with, or that has none, naming key ids only', async () => {
    const other = randomBytes(32).toString('base64');
    const wrong = openSecrets(loadConfig({ ...t.config.databaseUrl && { DATABASE_URL: t.config.databaseUrl }, INTAKE_DATA_DIR: t.config.dataDir, INTAKE_SECRET_KEY: other }), t.database);
    await assert.rejects(wrong, (error: Error) => error instanceof SecretKeyError && /INTAKE_SECRET_KEY holds key [0-9a-f]{8}, but this database's secrets are sealed with key [0-9a-f]{8}/.test(error.message) && !error.message.includes(other));
    const elsewhere = fs.mkdtempSync(path.join(path.dirname(t.config.dataDir), 'intake-nokey-'));
    try {
      await assert.rejects(openSecrets({ ...t.config, dataDir: elsewhere }, t.database), /has no key: set INTAKE_SECRET_KEY to that key, or put its key file at/);
      assert.ok(!fs.existsSync(path.join(elsewhere, KEY_FILE)), 'no key made for a database whose secrets are sealed');
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('a server started with another key', () => {
  it('exits with the reason, not a stack', async () => {
    const t = await startTestApp();
    try {
      const env = { ...RELAXED_ENV, INTAKE_DATA_DIR: t.config.dataDir, INTAKE_SECRET_KEY: randomBytes(32).toString('hex'), PORT: '0',
        ...(t.config.databaseUrl && { DATABASE_URL: t.config.databaseUrl, INTAKE_PG_JOBS_SCHEMA: t.config.pipeline.jobsSchema }) };
      // A server that starts after all is stopped by the timeout, and fails the test on its exit code.
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, 'serve'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr }));
      });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /^Secret key error: INTAKE_SECRET_KEY holds key [0-9a-f]{8}, but this database's secrets are sealed with key [0-9a-f]{8}/);
      assert.doesNotMatch(result.stderr, /    at /);
    } finally {
      await t.close();
    }
  });
});

describe('file modes under umask 022', { skip: ENGINE !== 'sqlite' && 'SQLite only' }, () => {
  it('makes the data directory 0700 and the database, WAL, SHM, key file, a backup and a restored database 0600', async () => {
    const t = await startTestApp();
    const dir = t.config.dataDir;
    const file = sqliteFile(dir);
    try {
      await t.createKey();
      assert.equal(mode(dir), '700');
      for (const f of [file, `${file}-wal`, `${file}-shm`, path.join(dir, KEY_FILE)]) assert.equal(mode(f), '600', f);
      const backup = backupSqlite(file, path.join(dir, 'backups', 'copy.sqlite'));
      assert.equal(mode(backup.file), '600');
      assert.equal(mode(path.dirname(backup.file)), '700');
      // A database of its own to restore into (the server's is in use), 0600 like any; and a backup
      // made before this change, or copied about, 0644: the restored database is 0600 all the same.
      const target = backupSqlite(file, path.join(dir, 'elsewhere', 'intake.sqlite')).file;
      fs.chmodSync(backup.file, 0o644);
      const restored = restoreSqlite(target, backup.file);
      assert.equal(mode(target), '600');
      assert.equal(mode(restored.previous!), '600');
    } finally {
      await t.close();
    }
  });

  it('tightens a data directory and database found with looser modes, and says so', async () => {
    const store = await createTestStore();
    try {
      const config = loadConfig(store.env);
      const first = openDatabase(config);
      await migrateToLatest(first);
      await first.close();
      fs.chmodSync(config.dataDir, 0o755);
      fs.chmodSync(sqliteFile(config.dataDir), 0o644);
      const again = openDatabase(config);
      await again.close();
      assert.equal(mode(config.dataDir), '700');
      assert.equal(mode(sqliteFile(config.dataDir)), '600');
      assert.equal(again.notices.length, 2, again.notices.join('; '));
      assert.match(again.notices.join('\n'), /was readable by others \(mode 644\): now 600/);
    } finally {
      await store.cleanup();
    }
  });
});
