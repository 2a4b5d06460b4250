// Another process's hold on a SQLite database's write lock, for the tests of how this process waits for it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteConnection } from '../src/db/sqlite-dialect.ts';

/**
 * Another process that takes the write lock, runs `statement` and commits after `holdMs`, then
 * writes the wall-clock time of its commit on stdout.
 */
export async function holdWriteLock(file: string, holdMs: number, statement = "insert into t values ('other process')"): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(${JSON.stringify(file)});
    db.exec('begin immediate');
    db.exec(${JSON.stringify(statement)});
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('commit'); db.close(); process.stdout.write('committed ' + Date.now() + '\\n'); }, ${holdMs});`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout!.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return child;
}

/** A database file with the table `t (x text)` in a directory of its own, which `remove` deletes. */
export function databaseWithTable(): { file: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-write-lock-'));
  const file = path.join(dir, 'db.sqlite');
  openSqliteConnection(file).exec('create table t (x text)');
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
