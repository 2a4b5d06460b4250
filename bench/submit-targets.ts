// One measured run of each target of the submit benchmark: the baseline route, and Intake's public
// endpoint on either engine, followed by the durability check on what Intake stored.
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { CONTACT_SUBMISSION, createForm, createOwner } from './intake-setup.ts';
import { runLoad, type LoadOptions, type LoadResult } from './load-client.ts';
import { startBaseline, startIntake } from './server-process.ts';
import { createStore, sqlitePath, withPostgres, type BenchStore, type Engine } from './stores.ts';

export const CONNECTIONS = 50;
export const WARMUP_SECONDS = 1;
export const SUBMISSION_BODY = JSON.stringify(CONTACT_SUBMISSION);

export interface TargetRun {
  load: LoadResult;
  /** Peak RSS of the server process over its whole life, in bytes. */
  peakRss: number;
}

export interface Durability {
  /** Submissions answered 201 (warm-up included). */
  created: number;
  stored: number;
  /** Answered 201 but not found after the server was killed: must be 0. */
  missing: number;
  /** Stored but never answered: requests the load generator cut off when it stopped. */
  unacknowledged: number;
  unanswered: number;
  ok: boolean;
}

export interface IntakeRun extends TargetRun {
  durability: Durability;
}

/** The submit benchmark's load: the contact submission POSTed by CONNECTIONS connections. */
export function loadOptions(url: string, seconds: number, idsFile?: string): LoadOptions {
  return {
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (bench)', referer: 'https://example.com/contact' },
    body: SUBMISSION_BODY,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    seconds,
    idsFile,
  };
}

export async function runBaseline(seconds: number): Promise<TargetRun> {
  const server = await startBaseline();
  try {
    const load = await runLoad(loadOptions(`${server.base}/submit`, seconds));
    return { load, peakRss: server.peakRss() };
  } finally {
    await server.stop();
  }
}

async function storedIds(store: BenchStore, formId: string): Promise<Set<string>> {
  if (store.engine === 'sqlite') {
    const db = new DatabaseSync(sqlitePath(store));
    try {
      const rows = db.prepare('select id from submissions where form_id = ?').all(formId) as Array<{ id: string }>;
      return new Set(rows.map((r) => r.id));
    } finally {
      db.close();
    }
  }
  const { rows } = await withPostgres(store.databaseUrl as string, (client) =>
    client.query<{ id: string }>('select id from submissions where form_id = $1', [formId]));
  return new Set(rows.map((r) => r.id));
}

function checkDurability(createdIds: string[], stored: Set<string>, unanswered: number): Durability {
  const missing = createdIds.filter((id) => !stored.has(id)).length;
  const unacknowledged = stored.size - (createdIds.length - missing);
  return {
    created: createdIds.length,
    stored: stored.size,
    missing,
    unacknowledged,
    unanswered,
    ok: missing === 0 && unacknowledged >= 0 && unacknowledged <= unanswered,
  };
}

/**
 * Intake's public endpoint under load, then SIGKILL (no clean shutdown, nothing left to flush) and
 * a look-up of every id that was answered 201.
 */
export async function runIntake(engine: Engine, postgresUrl: string | null, seconds: number, nodeOptions: string[] = [], env: Record<string, string> = {}): Promise<IntakeRun> {
  const store = await createStore(engine, postgresUrl);
  const idsFile = path.join(store.dataDir, 'created-ids.txt');
  try {
    const key = await createOwner(store.env);
    const server = await startIntake({ ...store.env, ...env }, nodeOptions);
    let load: LoadResult;
    let peakRss: number;
    let formId: string;
    try {
      const form = await createForm(server.base, key);
      formId = form.id;
      load = await runLoad(loadOptions(`${server.base}${form.endpointPath}`, seconds, idsFile));
      peakRss = server.peakRss();
    } finally {
      // A profiled server must exit cleanly to write its profile; otherwise it is killed like a crash.
      await server.stop(nodeOptions.length > 0 ? 'SIGTERM' : 'SIGKILL');
    }
    const createdIds = fs.readFileSync(idsFile, 'utf8').split('\n').filter(Boolean);
    const durability = checkDurability(createdIds, await storedIds(store, formId), load.unanswered);
    return { load, peakRss, durability };
  } finally {
    await store.cleanup();
  }
}

