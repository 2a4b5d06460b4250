// Whether the dependencies answer, for /healthz, /readyz and the dashboard's health page. The
// database is asked with a deadline and the answer kept for a moment: a load balancer polling
// every second, or a page loaded during an outage, never waits on a database that does not answer.
import fs from 'node:fs';
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { storageOutage } from '../db/outage.ts';
import type { SharedLimits } from '../limits/index.ts';
import { pingClamd } from '../files/clamav.ts';

export interface DatabaseState {
  up: boolean;
  /** Why it is down: an outage reason (src/db/outage.ts), `timeout` past the deadline, or `error`. */
  reason: string | null;
}

export interface Dependencies {
  database: DatabaseState & { engine: Database['engine'] };
  /** null without REDIS_URL. */
  redis: { up: boolean; fallbackSince: string | null } | null;
  /** null without INTAKE_CLAMAV_URL; down: submissions with files wait for it (docs/files.md#malware-scanning). */
  malwareScanner: { up: boolean } | null;
}

export interface DependencyOptions {
  /** How long an answer is reused, in ms. */
  cacheMs?: number;
  /** Longest wait for the database's answer, in ms; past it the database counts as down. */
  deadlineMs?: number;
  /** INTAKE_CLAMAV_URL's clamd, asked with PING. */
  clamav?: { host: string; port: number } | null;
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

  let scanner: { at: number; up: Promise<boolean> } | null = null;
  /** Asked at most once per cacheMs, like the database. */
  function scannerUp(target: { host: string; port: number }): Promise<boolean> {
    if (!scanner || Date.now() - scanner.at >= cacheMs) scanner = { at: Date.now(), up: pingClamd(target, deadlineMs) };
    return scanner.up;
  }

  return {
    databaseState,
    async check(): Promise<Dependencies> {
      const fallback = limits.fallback();
      const clamav = options.clamav ?? null;
      const [state, scannerState] = await Promise.all([databaseState(), clamav ? scannerUp(clamav) : null]);
      return {
        database: { engine: database.engine, ...state },
        redis: fallback && { up: !fallback.inForce, fallbackSince: fallback.since },
        malwareScanner: scannerState === null ? null : { up: scannerState },
      };
    },
  };
}

export type DependencyChecks = ReturnType<typeof dependencyChecks>;
