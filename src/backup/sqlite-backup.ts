// Backups of the embedded database while the server keeps serving, and putting one back.
// `VACUUM INTO` copies the database as one read transaction sees it: a consistent snapshot that
// holds every commit made before it began (so every submission acknowledged by then), while the
// writer goes on appending to the WAL. (SQLite's online backup API restarts whenever another
// connection writes, which under a steady submit load could go on for ever.) The copy is written
// beside its target and renamed into place only once it checked out whole. A backup holds every
// secret the database does (sealed ones stay sealed): the copy and the restored database are 0600
// whatever the umask, as the database is (db/file-modes.ts).
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DIR_MODE, FILE_MODE, privateDir, privateFile } from '../db/file-modes.ts';

export class BackupError extends Error {}

function integrity(file: string): string {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare('pragma integrity_check').all() as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

function isIntakeDatabase(file: string): boolean {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return db.prepare("select 1 from sqlite_master where type = 'table' and name in ('kysely_migration', 'submissions')").all().length === 2;
  } catch {
    return false;
  } finally {
    db.close();
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  submissions: number;
}

/** A consistent copy of `source` at `out` (which must not exist yet), checked with integrity_check. */
export function backupSqlite(source: string, out: string): BackupResult {
  if (!fs.existsSync(source)) throw new BackupError(`there is no database at ${source}`);
  const target = path.resolve(out);
  if (fs.existsSync(target)) throw new BackupError(`${target} exists already: choose a new file name`);
  // A directory made here is private; one that exists is the operator's choice and left as it is.
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: DIR_MODE });
  const partial = `${target}.partial-${process.pid}`;
  fs.rmSync(partial, { force: true });
  // VACUUM INTO writes into an empty file that exists, keeping its mode: made 0600 first.
  privateFile(partial);
  const db = new DatabaseSync(source, { timeout: 10_000 });
  try {
    db.prepare('vacuum into ?').run(partial);
  } finally {
    db.close();
  }
  const check = integrity(partial);
  if (check !== 'ok') {
    fs.rmSync(partial, { force: true });
    throw new BackupError(`the copy failed its integrity check: ${check}`);
  }
  const copy = new DatabaseSync(partial, { readOnly: true });
  const submissions = Number((copy.prepare('select count(*) as n from submissions').get() as { n: number }).n);
  copy.close();
  fs.renameSync(partial, target);
  return { file: target, bytes: fs.statSync(target).size, submissions };
}

/**
 * Every process that has the database open (a server, a worker) holds a shared lock on it, which
 * this connection's exclusive lock cannot get past: held, it also keeps one from starting meanwhile.
 */
function lockExclusively(file: string): DatabaseSync | null {
  const db = new DatabaseSync(file, { timeout: 0 });
  try {
    db.exec('pragma locking_mode = exclusive');
    db.exec('begin exclusive');
    return db;
  } catch {
    db.close();
    return null;
  }
}

export interface RestoreResult {
  restored: string;
  /** Where the database it replaced was moved to; null when there was none. */
  previous: string | null;
  submissions: number;
}

/** Puts the backup `from` in place of `target`, keeping the database it replaces beside it. Refuses while anything uses `target`. */
export function restoreSqlite(target: string, from: string, now = new Date()): RestoreResult {
  const backup = path.resolve(from);
  if (!fs.existsSync(backup)) throw new BackupError(`there is no file at ${backup}`);
  if (!isIntakeDatabase(backup)) throw new BackupError(`${backup} is not an Intake database`);
  const check = integrity(backup);
  if (check !== 'ok') throw new BackupError(`${backup} failed its integrity check: ${check}`);
  privateDir(path.dirname(target));
  const staged = `${target}.restoring-${process.pid}`;
  // copyFile gives the copy the backup's mode (0644 for one made before 0600 backups, or moved about).
  fs.copyFileSync(backup, staged);
  fs.chmodSync(staged, FILE_MODE);
  let lock: DatabaseSync | null = null;
  let previous: string | null = null;
  try {
    if (fs.existsSync(target)) {
      lock = lockExclusively(target);
      if (!lock) throw new BackupError('the database is in use: stop every intake serve and intake worker that uses it, then restore');
      // Committed work still in the WAL belongs to the database being replaced: it goes with it.
      // The lock is let go just before the swap (closing a connection may remove its WAL file by
      // name, which must not be the restored database's): a server started in that instant would
      // have opened the old file, and is refused by nothing; say so in the docs, stop them first.
      lock.exec('commit');
      lock.exec('pragma wal_checkpoint(truncate)');
      lock.close();
      lock = null;
      previous = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(target, previous);
      fs.chmodSync(previous, FILE_MODE);
    }
    for (const suffix of ['-wal', '-shm']) fs.rmSync(`${target}${suffix}`, { force: true });
    fs.renameSync(staged, target);
  } finally {
    lock?.close();
    fs.rmSync(staged, { force: true });
  }
  const restored = new DatabaseSync(target, { readOnly: true });
  const submissions = Number((restored.prepare('select count(*) as n from submissions').get() as { n: number }).n);
  restored.close();
  return { restored: target, previous, submissions };
}
