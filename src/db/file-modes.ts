// The data directory and every file holding the database (its -wal and -shm, backups, the secret
// key file) are the owner's alone: 0700 and 0600, whatever the umask. SQLite creates a database
// file 0644 less the umask, and its -wal and -shm with the database file's mode, so the file is
// made (or tightened) before SQLite opens it. Modes are set with chmod after creating, not left to
// the umask; looser modes found on start are tightened and reported.
import fs from 'node:fs';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** Sets `target` to `mode` if it is not; returns a notice when others could use it before (or still can). */
function tighten(target: string, mode: number): string | null {
  let current: number;
  try {
    current = fs.statSync(target).mode & 0o777;
  } catch {
    return null;
  }
  if (current === mode) return null;
  try {
    fs.chmodSync(target, mode);
  } catch {
    // Not ours to change (a directory someone else owns): start anyway, and say so.
    return (current & 0o077) !== 0 ? `${target} is readable by others (mode ${current.toString(8)}) and could not be changed to ${mode.toString(8)}` : null;
  }
  return (current & 0o077) !== 0 ? `${target} was readable by others (mode ${current.toString(8)}): now ${mode.toString(8)}` : null;
}

/** Creates the directory 0700 (with its parents as the umask says), or tightens it. */
export function privateDir(dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const notice = tighten(dir, DIR_MODE);
  return notice ? [notice] : [];
}

/** Creates an empty file 0600 if there is none, else tightens the one there. */
export function privateFile(file: string): string[] {
  try {
    fs.closeSync(fs.openSync(file, 'wx', FILE_MODE));
    fs.chmodSync(file, FILE_MODE);
    return [];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const notice = tighten(file, FILE_MODE);
  return notice ? [notice] : [];
}

/** Tightens the file if it exists; creates nothing. */
export function privateIfPresent(file: string): string[] {
  const notice = tighten(file, FILE_MODE);
  return notice ? [notice] : [];
}

/** The database file, its WAL and shared memory: created 0600 (the file) or tightened (all three). */
export function privateDatabaseFiles(file: string): string[] {
  return [...privateFile(file), ...privateIfPresent(`${file}-wal`), ...privateIfPresent(`${file}-shm`)];
}
