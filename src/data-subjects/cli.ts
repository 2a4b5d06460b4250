// `intake subjects search|export|erase --owner EMAIL --email EMAIL`: a person's requests answered
// from the command line, as JSON on stdout; the erasure is audited with its counts only.
import { parseArgs } from 'node:util';
import { InputError } from '../accounts/input-error.ts';
import { accountService } from '../accounts/service.ts';
import { accountStore } from '../accounts/store.ts';
import { auditService } from '../audit/service.ts';
import { auditStore } from '../audit/store.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { AppError } from '../http/errors.ts';
import { dataSubjectService, erasureDetail } from './service.ts';
import { dataSubjectStore } from './store.ts';

export async function subjectsCommand(config: Config, sub: string | undefined, args: string[], usage: (message: string) => Error): Promise<void> {
  if (sub !== 'search' && sub !== 'export' && sub !== 'erase') throw usage(`unknown subjects command "${sub ?? ''}"`);
  const { values } = parseArgs({ args, options: { owner: { type: 'string' }, email: { type: 'string' } } });
  if (!values.owner) throw usage('--owner is required (the account whose forms to look in)');
  if (!values.email) throw usage("--email is required (the person's address)");
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    const account = await accountService(accountStore(database.db), config).find(values.owner);
    if (!account) throw new InputError(`no account with email ${values.owner}`);
    const subjects = dataSubjectService({ store: dataSubjectStore(database.db, database.engine) });
    const run = async () => {
      if (sub === 'search') return subjects.search(account.id, values.email);
      if (sub === 'export') return subjects.export(account.id, values.email);
      const erasure = await subjects.erase(account.id, values.email);
      await auditService(auditStore(database.db)).recordKeyless({
        accountId: account.id, surface: 'cli', actor: 'cli', operation: 'subjects erase', targetId: null, detail: erasureDetail(erasure),
      });
      process.stderr.write(`${erasureDetail(erasure)}.\n`);
      return erasure;
    };
    const result = await run().catch((error: unknown) => {
      throw error instanceof AppError && error.status < 500 ? new InputError(error.message) : error;
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await database.close();
  }
}
