// `intake purge [--dry-run]`: what the retention purge deletes now (or would, with --dry-run), per form.
import { parseArgs } from 'node:util';
import { auditService } from '../audit/service.ts';
import { auditStore } from '../audit/store.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { retentionService } from './service.ts';
import { retentionStore } from './store.ts';

export async function purgeCommand(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { 'dry-run': { type: 'boolean' } } });
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    const retention = retentionService({ store: retentionStore(database.db, database.engine), audit: auditService(auditStore(database.db)) });
    const dryRun = values['dry-run'] === true;
    const results = dryRun ? await retention.dryRun() : await retention.purge();
    for (const r of results) process.stdout.write(`${r.form_id}  ${r.spam + r.expired} (${r.spam} spam)  ${r.form_name}\n`);
    const total = results.reduce((n, r) => n + r.spam + r.expired, 0);
    process.stderr.write(`${dryRun ? 'Would delete' : 'Deleted'} ${total} submission${total === 1 ? '' : 's'} past retention in ${results.length} form${results.length === 1 ? '' : 's'}.\n`);
  } finally {
    await database.close();
  }
}
