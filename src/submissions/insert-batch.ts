// Stores a batch of submissions in one transaction with a handful of statements, whatever its
// size: the counters move once per form and once per owner, the rows go in one multi-row insert.
// Rows are locked in one order (forms, then owners, each sorted by id), so concurrent batches on
// PostgreSQL never deadlock, and a form deleted meanwhile fails only its own submissions.
import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { InsertOutcome, NewSubmission, Submission } from './store.ts';
import { byCodeUnits } from '../text-order.ts';
import { insertFileRows } from '../files/store.ts';
import { accountSubmissionsTotal } from '../db/counter-shards.ts';

type Tx = Transaction<Tables>;

export type SubmissionRow = ReturnType<typeof row>;

/** A submission stored under an Idempotency-Key, with the hash of the request that stored it. */
export interface KeyedSubmission {
  submission: Submission;
  hash: string | null;
}

/** Submissions stored under these (form, Idempotency-Key) pairs, by keyOf(form, key). */
export type FindByKeys = (tx: Tx, items: Array<{ formId: string; idempotencyKey: string }>) => Promise<Map<string, KeyedSubmission>>;

export const keyOf = (formId: string, key: string) => `${formId}\n${key}`;

/**
 * How long a key answers for its request. Past it the key is freed: the same key starts a new
 * submission, and the old one is never shown again through it.
 */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** The statements of a batch whose best form differs by engine and connection. */
export interface BatchStatements {
  findByKeys: FindByKeys;
  /** Inserts the rows, skipping any whose (form, Idempotency-Key) is taken; returns the ids it stored. */
  insertRows(tx: Tx, rows: SubmissionRow[]): Promise<Set<string>>;
}

function groupBy<K>(indexes: number[], key: (i: number) => K): Map<K, number[]> {
  const groups = new Map<K, number[]>();
  for (const i of indexes) {
    const k = key(i);
    const group = groups.get(k) ?? [];
    group.push(i);
    groups.set(k, group);
  }
  return new Map([...groups].sort(([a], [b]) => byCodeUnits(String(a), String(b))));
}

async function moveFormCount(tx: Tx, formId: string, delta: number): Promise<boolean> {
  const result = await tx
    .updateTable('forms')
    .set((eb) => ({ submission_count: eb('submission_count', '+', delta) }))
    .where('id', '=', formId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

async function moveAccountCount(tx: Tx, accountId: string, delta: number): Promise<void> {
  await tx.updateTable('accounts').set((eb) => ({ submissions_total: eb('submissions_total', '+', delta) })).where('id', '=', accountId).execute();
}

/**
 * Admits as many of an owner's submissions as the free plan's cap leaves room for; returns how many.
 * The plan is read here, in the transaction, not from what the request saw: an upgrade counts at once.
 */
async function admitOnAccount(tx: Tx, accountId: string, wanted: number, freeCap: number | null): Promise<number> {
  let update = tx.updateTable('accounts').set((eb) => ({ submissions_total: eb('submissions_total', '+', wanted) })).where('id', '=', accountId);
  // The total is the row's and its shards' (PostgreSQL's one-statement batches of a pro owner add there).
  if (freeCap !== null) update = update.where((eb) => eb.or([eb('plan', '=', 'pro'), eb(accountSubmissionsTotal('accounts'), '<=', freeCap - wanted)]));
  if ((await update.executeTakeFirst()).numUpdatedRows > 0n || freeCap === null) return wanted;
  const row = await tx.selectFrom('accounts').select(accountSubmissionsTotal('accounts').as('total')).where('id', '=', accountId).executeTakeFirst();
  const room = Math.max(0, Math.min(wanted, freeCap - Number(row?.total ?? freeCap)));
  if (room > 0) await moveAccountCount(tx, accountId, room);
  return room;
}

function keyExpired(stored: KeyedSubmission, item: NewSubmission): boolean {
  return Date.parse(item.createdAt) - Date.parse(stored.submission.created_at) > IDEMPOTENCY_KEY_HOURS * 3_600_000;
}

/** Rows from before migration 0013 have no hash: a replay of theirs cannot be told from a guess, so it is refused. */
function replayOutcome(stored: KeyedSubmission, item: NewSubmission): InsertOutcome {
  return stored.hash !== null && stored.hash === item.idempotencyHash ? { kind: 'duplicate', existing: stored.submission } : { kind: 'key_reused' };
}

async function releaseKeys(tx: Tx, submissionIds: string[]): Promise<void> {
  await tx.updateTable('submissions').set({ idempotency_key: null, idempotency_hash: null }).where('id', 'in', submissionIds).execute();
}

function row(item: NewSubmission) {
  return {
    id: item.id,
    form_id: item.formId,
    version_id: item.versionId,
    data: JSON.stringify(item.data),
    metadata: JSON.stringify(item.metadata),
    idempotency_key: item.idempotencyKey,
    idempotency_hash: item.idempotencyHash,
    fingerprint: item.fingerprint,
    processing_status: 'pending' as const,
    spam_flag: false,
    reply_status: 'pending' as const,
    created_at: item.createdAt,
  };
}

export async function insertBatch(tx: Tx, items: NewSubmission[], statements: BatchStatements): Promise<InsertOutcome[]> {
  const outcomes: Array<InsertOutcome | undefined> = new Array(items.length);
  let candidates = items.map((_, i) => i);
  const keyed = (indexes: number[]) =>
    indexes.map((i) => items[i]!).filter((item): item is NewSubmission & { idempotencyKey: string } => item.idempotencyKey !== null);

  // A replayed Idempotency-Key answers with the submission stored first (one look for the batch), but
  // only to the same request: another body under the same key gets nothing of the first.
  const replayed = await statements.findByKeys(tx, keyed(candidates));
  const expired: string[] = [];
  for (const i of candidates) {
    const item = items[i]!;
    const stored = item.idempotencyKey === null ? undefined : replayed.get(keyOf(item.formId, item.idempotencyKey));
    if (!stored) continue;
    if (keyExpired(stored, item)) expired.push(stored.submission.id);
    else outcomes[i] = replayOutcome(stored, item);
  }
  if (expired.length > 0) await releaseKeys(tx, expired);
  candidates = candidates.filter((i) => !outcomes[i]);

  for (const [formId, group] of groupBy(candidates, (i) => items[i]!.formId)) {
    if (!(await moveFormCount(tx, formId, group.length))) for (const i of group) outcomes[i] = { kind: 'form_gone' };
  }
  candidates = candidates.filter((i) => !outcomes[i]);

  // By owner and cap: a plan changed while the batch gathered gives its items two caps.
  for (const group of groupBy(candidates, (i) => `${items[i]!.accountId}\n${items[i]!.submissionCap}`).values()) {
    const first = items[group[0]!]!;
    const admitted = await admitOnAccount(tx, first.accountId, group.length, first.submissionCap);
    for (const i of group.slice(admitted)) {
      outcomes[i] = { kind: 'plan_limit' };
      await moveFormCount(tx, items[i]!.formId, -1);
    }
  }
  candidates = candidates.filter((i) => !outcomes[i]);

  const inserted = candidates.length > 0 ? await statements.insertRows(tx, candidates.map((i) => row(items[i]!))) : new Set<string>();
  const conflicted = candidates.filter((i) => !inserted.has(items[i]!.id));
  for (const i of candidates) if (inserted.has(items[i]!.id)) outcomes[i] = { kind: 'created' };
  // Their files' rows in the same transaction: a 201 means the submission and its files are stored.
  const withFiles = candidates.map((i) => items[i]!).filter((item) => inserted.has(item.id) && item.files && item.files.length > 0);
  await insertFileRows(tx, withFiles.map((item) => ({ submissionId: item.id, formId: item.formId, accountId: item.accountId, createdAt: item.createdAt, files: item.files! })));
  // The same Idempotency-Key was stored meanwhile, by another transaction or earlier in this batch.
  const storedMeanwhile = conflicted.length > 0 ? await statements.findByKeys(tx, keyed(conflicted)) : new Map<string, KeyedSubmission>();
  for (const i of conflicted) {
    const item = items[i]!;
    await moveFormCount(tx, item.formId, -1);
    await moveAccountCount(tx, item.accountId, -1);
    const stored = storedMeanwhile.get(keyOf(item.formId, item.idempotencyKey as string));
    if (!stored) throw new Error('idempotency conflict without a stored submission');
    outcomes[i] = replayOutcome(stored, item);
  }
  return outcomes as InsertOutcome[];
}
