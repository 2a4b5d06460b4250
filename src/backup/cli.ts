// `intake backup --out FILE` and `intake restore --from FILE`: the embedded database's copy while
// the server serves, and putting one back while nothing uses it. PostgreSQL has its own tools.
import { parseArgs } from 'node:util';
import { InputError } from '../accounts/input-error.ts';
import type { Config } from '../config.ts';
import { sqliteFile } from '../db/sqlite-file.ts';
import { BackupError, backupSqlite, restoreSqlite } from './sqlite-backup.ts';

const POSTGRES_NOTE = 'This server stores its data in PostgreSQL: back it up with pg_dump and restore with pg_restore (see docs/data.md).';

export async function backupCommand(config: Config, command: 'backup' | 'restore', args: string[], usage: (message: string) => Error): Promise<void> {
  const { values } = parseArgs({ args, options: { out: { type: 'string' }, from: { type: 'string' } } });
  if (config.databaseUrl) throw new InputError(POSTGRES_NOTE);
  try {
    if (command === 'backup') {
      if (!values.out) throw usage('backup needs --out FILE');
      const done = backupSqlite(sqliteFile(config.dataDir), values.out);
      process.stderr.write(`Backed up ${done.submissions} submissions (${done.bytes} bytes); integrity check ok.\n`);
      process.stdout.write(`${done.file}\n`);
      return;
    }
    if (!values.from) throw usage('restore needs --from FILE');
    const done = restoreSqlite(sqliteFile(config.dataDir), values.from);
    process.stderr.write(`Restored ${done.submissions} submissions into ${done.restored}.${done.previous ? ` The database it replaced is kept at ${done.previous}.` : ''}\n`);
  } catch (error) {
    throw error instanceof BackupError ? new InputError(error.message) : error;
  }
}
