// `node bench/writer.ts [--batches 2000] [--batch 25] [--runs 3]`: the SQLite writer's own cost per
// stored submission, without HTTP: the store's batch code and the processing jobs, as the writer
// thread runs them, on a fresh migrated file, in this thread. Prints the CPU time (user, system)
// and the bytes written to disk (WAL and checkpoints, from /proc/self/io) per row. Not part of
// `npm run bench`; the README's performance section quotes it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Kysely } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { openSqliteConnection, sqliteDialect } from '../src/db/sqlite-dialect.ts';
import type { Tables } from '../src/db/tables.ts';
import { timeOrderedUuid } from '../src/db/time-ordered-id.ts';
import { preparedJobInsert } from '../src/jobs/sqlite-queue.ts';
import { contentFingerprint } from '../src/submissions/fingerprint.ts';
import { submissionStore, type NewSubmission } from '../src/submissions/store.ts';
import { batchStatementsFor } from '../src/submissions/batch-statements.ts';
import { processingJobs } from '../src/submissions/writer.ts';
import { fixed, median, table } from './stats.ts';

const { values } = parseArgs({ options: { batches: { type: 'string', default: '2000' }, batch: { type: 'string', default: '25' }, runs: { type: 'string', default: '3' } } });
const BATCHES = Number(values.batches);
const BATCH = Number(values.batch);

const writtenBytes = () => Number(/write_bytes: (\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);

async function prepareFile(dir: string): Promise<void> {
  const database = openDatabase({ databaseUrl: null, dataDir: dir });
  await migrateToLatest(database);
  const now = new Date().toISOString();
  await database.db.insertInto('accounts').values({ id: 'owner', email: 'owner@example.com', plan: 'pro', created_at: now } as never).execute();
  await database.db.insertInto('forms').values({ id: 'form', account_id: 'owner', name: 'Contact', slug: 'contact', visibility: 'public', current_version_id: 'v1', created_at: now, updated_at: now } as never).execute();
  await database.close();
}

let sequence = 0;
function submission(): NewSubmission {
  const n = sequence++;
  const data = { name: `Ada ${n}`, email: `ada${n}@example.com`, message: 'Hello, could you send me your price list for the garden chairs please? Thanks!' };
  const metadata = { ip: '127.0.0.1', user_agent: 'Mozilla/5.0 (bench)', referer: 'https://example.com/contact', origin: null, utm: {} };
  const now = new Date();
  return {
    id: timeOrderedUuid(now.getTime()), formId: 'form', accountId: 'owner', versionId: 'v1', data, metadata, idempotencyKey: null, idempotencyHash: null,
    fingerprint: contentFingerprint(data, [], metadata.ip), createdAt: now.toISOString(), submissionCap: null,
  };
}

async function run(): Promise<{ user: number; system: number; kib: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-writer-'));
  try {
    await prepareFile(dir);
    // As writer-thread.ts: a connection of its own, batches arriving as JSON text.
    const connection = openSqliteConnection(path.join(dir, 'intake.sqlite'));
    const db = new Kysely<Tables>({ dialect: sqliteDialect(connection, { pollMs: 0.25, timeoutMs: 10_000, blocking: true }) });
    const store = submissionStore(db, batchStatementsFor(connection), 'sqlite');
    const addJobs = preparedJobInsert(connection, 5);
    const write = async (batch: string) => {
      const outcomes = await store.insertBatch(JSON.parse(batch) as NewSubmission[], async (_tx, created) => addJobs(processingJobs(created)));
      return JSON.stringify(outcomes);
    };
    const batches = (count: number) => Array.from({ length: count }, () => JSON.stringify(Array.from({ length: BATCH }, submission)));
    for (const batch of batches(200)) await write(batch); // warm-up
    const measured = batches(BATCHES);
    const cpu = process.cpuUsage();
    const written = writtenBytes();
    for (const batch of measured) await write(batch);
    const used = process.cpuUsage(cpu);
    const rows = BATCHES * BATCH;
    const result = { user: used.user / rows, system: used.system / rows, kib: (writtenBytes() - written) / rows / 1024 };
    await db.destroy();
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const results: Array<Awaited<ReturnType<typeof run>>> = [];
for (let i = 0; i < Number(values.runs); i++) results.push(await run());
const rows = results.map((r, i) => [String(i + 1), fixed(r.user, 1), fixed(r.system, 1), fixed(r.user + r.system, 1), fixed(r.kib, 1)]);
rows.push(['median', ...(['user', 'system'] as const).map((k) => fixed(median(results.map((r) => r[k])), 1)), fixed(median(results.map((r) => r.user + r.system)), 1), fixed(median(results.map((r) => r.kib)), 1)]);
console.log(`${BATCHES} batches of ${BATCH} after 200 of warm-up, per stored submission:`);
console.log(table(['Run', 'User µs', 'System µs', 'CPU µs', 'KiB written'], rows));
