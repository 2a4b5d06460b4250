// Throwaway databases: a temporary directory for SQLite, a schema of its own on PostgreSQL.
// Each is removed afterwards, also when a run fails.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sqliteFile } from '../src/db/database.ts';

export type Engine = 'sqlite' | 'postgres';

export interface BenchStore {
  engine: Engine;
  dataDir: string;
  /** With search_path set to the throwaway schema; null for SQLite. */
  databaseUrl: string | null;
  schema: string | null;
  /** The environment that points Intake (server or CLI) at this store. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function createStore(engine: Engine, postgresUrl: string | null): Promise<BenchStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-bench-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (engine === 'sqlite') {
    return { engine, dataDir, databaseUrl: null, schema: null, env: { INTAKE_DATA_DIR: dataDir }, cleanup: async () => removeDir() };
  }
  if (!postgresUrl) throw new Error('no PostgreSQL server to run against');
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await withPostgres(postgresUrl, (client) => client.query(`create schema ${schema}`));
  const url = new URL(postgresUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  // Names the run's connections in pg_stat_activity, so bench/cpu.ts can count its backends alone.
  url.searchParams.set('application_name', schema);
  return {
    engine,
    dataDir,
    databaseUrl: url.toString(),
    schema,
    // The job queue's tables get a schema of their own too, dropped with it.
    env: { INTAKE_DATA_DIR: dataDir, DATABASE_URL: url.toString(), INTAKE_PG_JOBS_SCHEMA: `${schema}_jobs` },
    cleanup: async () => {
      await withPostgres(postgresUrl, async (client) => {
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.query(`drop schema if exists ${schema}_jobs cascade`);
      });
      removeDir();
    },
  };
}

export async function withPostgres<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export const sqlitePath = (store: BenchStore) => sqliteFile(store.dataDir);
