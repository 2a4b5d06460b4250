// Where the embedded database lives in the data directory. Apart from database.ts so that
// `intake backup` and `restore`, which copy the file with node:sqlite alone, do not load Kysely.
import path from 'node:path';

export function sqliteFile(dataDir: string): string {
  return path.join(dataDir, 'intake.sqlite');
}
