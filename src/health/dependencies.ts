// Whether the dependencies answer, for /healthz, /readyz and the dashboard's health page. The
// database is asked with a deadline and the answer kept for a moment: a load balancer polling
// every second, or a page loaded during an outage, never waits on a database that does not answer.
import fs from 'node:fs';
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { storageOutage } from '../db/outage.ts';
import type { SharedLimits } from '../limits/index.ts';

export interface DatabaseState {
  up: boolean;
  /** Why it is down: an outage reason (src/db/outage.ts), `timeout` past the deadline, or `error`. */
  reason: string | null;
}

export interface Dependencies {
  database: DatabaseState & { engine: Database['engine'] };
  /** null without REDIS_URL. */
  redis: { up: boolean; fallbackSince: string | null } | null;
}

export interface DependencyOptions {
  /** How long an answer is reused, in ms. */
  cacheMs?: number;
  /** Longest wait for the database's answer, in ms; past it the database counts as down. */
  deadlineMs?: number;
}

/** Some room for SQLite to write a batch and its journal; below it the disk counts as full. */
const SQLITE_MIN_FREE_BYTES = 1024 * 1024;

async function askDatabase(database: Database): Promise<DatabaseState> {
  try {
    await sql`select 1`.execute(database.db);
    // SQLite's own file always answers a read; what stops its writes is a full disk.
    if (database.sqliteFile) {
      const disk = await fs.promises.statfs(database.sqliteFile);
      if (disk.bavail * disk.bsize < SQLITE_MIN_FREE_BYTES) return { up: false, reason: 'disk_full' };
    }
    return { up: true, reason: null };
  } catch (error) {
    return { up: false, reason: storageOutage(error) ?? 'error' };
  }
}

export function dependencyChecks(database: Database, limits: SharedLimits, options: DependencyOptions = {}) {
  const cacheMs = options.cacheMs ?? 1_000;
  const deadlineMs = options.deadlineMs ?? 1_000;
  let last: { at: number; state: DatabaseState } | null = null;
  let asking: Promise<DatabaseState> | null = null;

  async function databaseState(): Promise<DatabaseState> {
    if (last && Date.now() - last.at < cacheMs) return last.state;
    // One question at a time: callers during it share its answer.
    asking ??= askDatabase(database).then((state) => {
      last = { at: Date.now(), state };
      asking = null;
      return state;
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<DatabaseState>((resolve) => {
      timer = setTimeout(() => resolve({ up: false, reason: 'timeout' }), deadlineMs);
    });
    try {
      return await Promise.race([asking, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    databaseState,
    async check(): Promise<Dependencies> {
      const fallback = limits.fallback();
      return {
        database: { engine: database.engine, ...(await databaseState()) },
        redis: fallback && { up: !fallback.inForce, fallbackSince: fallback.since },
      };
    },
  };
}

export type DependencyChecks = ReturnType<typeof dependencyChecks>;
