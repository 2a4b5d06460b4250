// Test fixtures: a real database (a temporary SQLite file, or a throwaway schema on the
// PostgreSQL server named by DATABASE_URL) and the real app, driven through inject().
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { buildServices, openSecrets, type ServiceOptions, type Services } from '../src/services.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { accountService } from '../src/accounts/service.ts';
import { accountStore } from '../src/accounts/store.ts';
import type { SecretBox } from '../src/secrets/box.ts';
import { CONTACT_SCHEMA } from './fixtures.ts';

export const POSTGRES_URL = process.env.DATABASE_URL || null;
export const ENGINE = POSTGRES_URL ? 'postgres' : 'sqlite';

export interface TestStore {
  databaseUrl: string | null;
  dataDir: string;
  /** The environment that points the CLI or a server process at this store. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** A private place for one test's data, removed by the returned cleanup. */
export async function createTestStore(): Promise<TestStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-test-'));
  if (!POSTGRES_URL) {
    return { databaseUrl: null, dataDir, env: { INTAKE_DATA_DIR: dataDir }, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    databaseUrl: url.toString(),
    dataDir,
    // Each test store gets its own job tables too: workers of one test must never take another's jobs.
    env: { INTAKE_DATA_DIR: dataDir, DATABASE_URL: url.toString(), INTAKE_PG_JOBS_SCHEMA: `${schema}_jobs` },
    cleanup: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.query(`drop schema if exists ${schema}_jobs cascade`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Migrates a store's database and makes an owner account with a key for each email (the keys, in
 * order), through the account service the CLI's `keys create --new-account` calls: for tests that need
 * owners in place but check something else, without a CLI process (a second or more) for each.
 */
export async function prepareStore(store: TestStore, owners: string[] = []): Promise<string[]> {
  const config = loadConfig(store.env);
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    const accounts = accountService(accountStore(database.db), config);
    const keys: string[] = [];
    for (const email of owners) keys.push((await accounts.createKey({ email, name: 'k' })).key);
    return keys;
  } finally {
    await database.close();
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  services: Services;
  /** The key the stores seal secrets with. */
  secrets: SecretBox;
  /** Creates an owner (if new) and returns a fresh API key for it. */
  createKey(email?: string): Promise<string>;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Limits are raised so that tests of other behaviour never trip them; rate-limit tests pass their own. */
export const RELAXED_ENV = {
  INTAKE_SUBMIT_RATE_LIMIT: '100000',
  INTAKE_API_RATE_LIMIT: '100000',
  INTAKE_MCP_RATE_LIMIT: '100000',
  INTAKE_LOGIN_RATE_LIMIT: '100000',
  INTAKE_LOGIN_ACCOUNT_RATE_LIMIT: '100000',
  INTAKE_OAUTH_RATE_LIMIT: '100000',
  INTAKE_OAUTH_REGISTER_RATE_LIMIT: '100000',
};

export async function startTestApp(env: Record<string, string> = {}, options: ServiceOptions = {}): Promise<TestApp> {
  // A caller that names its own store (a test store's env) keeps it and cleans it up itself.
  const store = env.INTAKE_DATA_DIR ? undefined : await createTestStore();
  const config = loadConfig({ ...RELAXED_ENV, ...store?.env, ...env });
  const database = openDatabase(config);
  await migrateToLatest(database);
  const { secrets } = await openSecrets(config, database);
  const services = buildServices(config, database, secrets, options);
  const app = await buildApp({ config, database, logger: false, services });
  const { accounts } = services;
  let n = 0;
  return {
    app,
    config,
    database,
    services,
    secrets,
    async createKey(email = `owner${++n}-${randomBytes(3).toString('hex')}@example.com`) {
      return (await accounts.createKey({ email, name: 'test' })).key;
    },
    request: (options) => app.inject(options),
    async close() {
      await app.close();
      await services.limits.close();
      await services.live.close();
      await database.close();
      await store?.cleanup();
    },
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The path of a full endpoint URL, for inject(). */
export const pathOf = (url: string) => new URL(url).pathname;

export { CONTACT_SCHEMA };

export async function createForm(t: TestApp, key: string, overrides: Record<string, unknown> = {}) {
  const response = await t.request({
    method: 'POST',
    url: '/api/forms',
    headers: bearer(key),
    payload: { name: 'Contact', slug: `contact-${randomBytes(3).toString('hex')}`, visibility: 'public', fields_schema: CONTACT_SCHEMA, ...overrides },
  });
  if (response.statusCode !== 201) throw new Error(`form creation failed: ${response.statusCode} ${response.body}`);
  return response.json() as { id: string; endpoint: string; slug: string; submission_token: string | null; [k: string]: unknown };
}
