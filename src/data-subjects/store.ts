// The only code that reads and deletes what Intake holds about one person, by email address.
// Found through subject_emails (the index the pipeline's fingerprint recorder fills, in seq order per
// form, up to fingerprint_marks.through_seq); submissions past a form's mark, which the pipeline has
// not reached yet, are read and matched here, up to a bound (UNINDEXED_LIMIT).
import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Engine } from '../db/migrations/column-types.ts';
import type { Tables } from '../db/tables.ts';
import { fromJson, toBool, toIso, toIsoOrNull } from '../db/values.ts';
import { readSubmissions, type Submission } from '../submissions/store.ts';
import { emailHash, emailsIn } from './subject-emails.ts';
import { lockMarkForDelete } from '../pipeline/fingerprint-store.ts';
import { lockInSeqOrder } from '../submissions/row-locks.ts';
import { byCodeUnits } from '../text-order.ts';

/** Not-yet-indexed submissions a search reads at most, over all of the owner's forms. */
export const UNINDEXED_LIMIT = 50_000;
/** Ids per statement when reading or deleting. */
const ID_CHUNK = 500;

export interface SubjectMatch {
  form_id: string;
  form_name: string;
  id: string;
  created_at: string;
}

export interface SubjectSearch {
  submissions: SubjectMatch[];
  /** False when more not-yet-indexed submissions were waiting than a search reads: search again once the pipeline caught up. */
  complete: boolean;
}

export interface DerivedData {
  analyses: Array<{ submission_id: string; kind: string; result: unknown; created_at: string }>;
  deliveries: Array<{
    id: string; submission_id: string | null; destination_id: string; destination_type: string; status: string; payload: unknown; created_at: string; completed_at: string | null;
    attempts: Array<{ attempt: number; attempted_at: string; status_code: number | null; error: string | null; response_body: string | null }>;
  }>;
  /** Model summaries that read these submissions: which and when, not their text, which describes other people too. */
  summaries: Array<{ id: string; form_id: string; created_at: string }>;
}

export interface ErasedForm {
  form_id: string;
  erased: number;
}

const chunks = <T>(items: T[], size = ID_CHUNK): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export function dataSubjectStore(db: Db, engine: Engine) {
  async function indexed(accountId: string, hash: string): Promise<SubjectMatch[]> {
    const rows = await db.selectFrom('subject_emails as e')
      .innerJoin('submissions as s', 's.id', 'e.submission_id')
      .innerJoin('forms as f', 'f.id', 's.form_id')
      .select(['s.form_id', 'f.name as form_name', 's.id', 's.created_at'])
      .where('e.email_hash', '=', hash).where('f.account_id', '=', accountId)
      .execute();
    return rows.map((row) => ({ form_id: row.form_id, form_name: row.form_name, id: row.id, created_at: toIso(row.created_at) }));
  }

  /** Submissions past each form's mark, read in seq order a chunk at a time, matched by their addresses. */
  async function unindexed(accountId: string, address: string): Promise<{ matches: SubjectMatch[]; complete: boolean }> {
    const forms = await db.selectFrom('forms as f').leftJoin('fingerprint_marks as m', 'm.form_id', 'f.id')
      .select(['f.id', 'f.name', 'm.through_seq']).where('f.account_id', '=', accountId).orderBy('f.id').execute();
    const matches: SubjectMatch[] = [];
    let budget = UNINDEXED_LIMIT;
    for (const form of forms) {
      let after = Number(form.through_seq ?? 0);
      for (;;) {
        if (budget <= 0) {
          const more = await db.selectFrom('submissions').select('id').where('form_id', '=', form.id).where('seq', '>', after).limit(1).executeTakeFirst();
          if (more) return { matches, complete: false };
          break;
        }
        const rows = await db.selectFrom('submissions').select(['id', 'seq', 'data', 'created_at'])
          .where('form_id', '=', form.id).where('seq', '>', after).orderBy('seq').limit(Math.min(1000, budget)).execute();
        if (rows.length === 0) break;
        budget -= rows.length;
        after = Number(rows.at(-1)!.seq);
        for (const row of rows) {
          if (emailsIn(fromJson(row.data)).has(address)) matches.push({ form_id: form.id, form_name: form.name, id: row.id, created_at: toIso(row.created_at) });
        }
      }
    }
    return { matches, complete: true };
  }

  return {
    async search(accountId: string, address: string): Promise<SubjectSearch> {
      const found = await indexed(accountId, emailHash(address));
      const rest = await unindexed(accountId, address);
      const byId = new Map([...found, ...rest.matches].map((m) => [m.id, m]));
      const submissions = [...byId.values()].sort((a, b) => byCodeUnits(a.form_id, b.form_id) || byCodeUnits(a.created_at, b.created_at) || byCodeUnits(a.id, b.id));
      return { submissions, complete: rest.complete };
    },

    readSubmissions: (ids: string[]): Promise<Map<string, Submission>> => readAll(ids, (part) => readSubmissions(db, part)),

    /** What Intake derived from these submissions: analyses (verdicts, translations) and the deliveries sent about them with their attempts. */
    async derived(ids: string[]): Promise<DerivedData> {
      const analyses: DerivedData['analyses'] = [];
      const deliveries: DerivedData['deliveries'] = [];
      const summaries = new Map<string, DerivedData['summaries'][number]>();
      for (const part of chunks(ids)) {
        const made = await db.selectFrom('submission_summary_sources as s').innerJoin('submission_summaries as m', 'm.id', 's.summary_id')
          .select(['m.id', 'm.form_id', 'm.created_at']).where('s.submission_id', 'in', part).execute();
        for (const m of made) summaries.set(m.id, { id: m.id, form_id: m.form_id, created_at: toIso(m.created_at) });
        const rows = await db.selectFrom('submission_analyses').selectAll().where('submission_id', 'in', part).orderBy('submission_id').execute();
        analyses.push(...rows.map((r) => ({ submission_id: r.submission_id, kind: r.kind, result: fromJson(r.result), created_at: toIso(r.created_at) })));
        const sent = await db.selectFrom('deliveries as d').innerJoin('destinations as t', 't.id', 'd.destination_id')
          .select(['d.id', 'd.submission_id', 'd.destination_id', 't.type', 'd.status', 'd.payload', 'd.created_at', 'd.completed_at'])
          .where('d.submission_id', 'in', part).orderBy('d.created_at').execute();
        const attempts = sent.length === 0 ? [] : await db.selectFrom('delivery_attempts').selectAll().where('delivery_id', 'in', sent.map((d) => d.id)).orderBy('attempt').execute();
        for (const d of sent) {
          deliveries.push({
            id: d.id, submission_id: d.submission_id, destination_id: d.destination_id, destination_type: d.type, status: d.status, payload: fromJson(d.payload),
            created_at: toIso(d.created_at), completed_at: toIsoOrNull(d.completed_at),
            attempts: attempts.filter((a) => a.delivery_id === d.id).map((a) => ({
              attempt: a.attempt, attempted_at: toIso(a.attempted_at), status_code: a.status_code, error: a.error, response_body: a.response_body,
            })),
          });
        }
      }
      return { analyses, deliveries, summaries: [...summaries.values()].sort((a, b) => byCodeUnits(a.created_at, b.created_at) || byCodeUnits(a.id, b.id)) };
    },

    /**
     * Deletes the submissions and everything kept about them, a form at a time, in chunks: the
     * deliveries (their attempts go with them); the charges' records lose the submission's id;
     * analyses, index rows, fingerprints and every summary made from any of them go with the rows
     * (foreign keys, the 0011 and 0028 triggers). The form's counters move in the same transaction.
     * Submissions in processing are deleted too: erasure does not wait.
     */
    async erase(matches: SubjectMatch[]): Promise<ErasedForm[]> {
      const byForm = new Map<string, string[]>();
      for (const m of matches) byForm.set(m.form_id, [...(byForm.get(m.form_id) ?? []), m.id]);
      const erased: ErasedForm[] = [];
      for (const [formId, ids] of [...byForm].sort(([a], [b]) => byCodeUnits(a, b))) {
        let count = 0;
        for (const part of chunks(ids)) count += await db.transaction().execute((tx) => deleteSubmissions(tx, engine, formId, part));
        erased.push({ form_id: formId, erased: count });
      }
      // SQLite: the deleted pages are zeroed in the file (secure_delete), but the WAL still holds
      // their earlier images until a checkpoint copies it back; TRUNCATE then empties the WAL file.
      // A reader in the middle of a transaction keeps its frames: the next checkpoint takes them.
      if (engine === 'sqlite' && erased.length > 0) await sql`pragma wal_checkpoint(truncate)`.execute(db);
      return erased;
    },
  };
}

async function readAll<T>(ids: string[], read: (part: string[]) => Promise<Map<string, T>>): Promise<Map<string, T>> {
  const all = new Map<string, T>();
  for (const part of chunks(ids)) for (const [id, value] of await read(part)) all.set(id, value);
  return all;
}

/**
 * Deletes these submissions of one form with what is kept about them, and moves the form's counters;
 * returns how many were deleted. Shared by erasure, the retention purge and a workspace's deletion.
 * The form's mark first, then the rows in seq order (PostgreSQL), as the pipeline takes them: see
 * lockMarkForDelete and row-locks.ts.
 */
export async function deleteSubmissions(tx: Transaction<Tables>, engine: Engine, formId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  await lockMarkForDelete(tx, formId);
  // Erasure deletes submissions still being processed too: lock them in the pipeline's order first.
  await lockInSeqOrder(tx, engine, formId, ids);
  await tx.deleteFrom('deliveries').where('submission_id', 'in', ids).execute();
  await anonymiseCharges(tx, ids);
  const deleted = await tx.deleteFrom('submissions').where('form_id', '=', formId).where('id', 'in', ids).returning(['spam_flag']).execute();
  if (deleted.length === 0) return 0;
  const spam = deleted.filter((row) => toBool(row.spam_flag)).length;
  await tx.updateTable('forms')
    .set((eb) => ({ submission_count: eb('submission_count', '-', deleted.length), spam_count: eb('spam_count', '-', spam) }))
    .where('id', '=', formId).execute();
  return deleted.length;
}

/**
 * A charge's record is billing: it keeps its account, step, period, cost and time, and loses the
 * submission's id for `erased:<random>` (one per submission, so its steps stay apart under the key).
 */
async function anonymiseCharges(tx: Transaction<Tables>, ids: string[]): Promise<void> {
  const charged = await tx.selectFrom('credit_charges').select('submission_id').distinct().where('submission_id', 'in', ids).execute();
  for (const { submission_id: id } of charged) {
    await tx.updateTable('credit_charges').set({ submission_id: `erased:${randomUUID()}` }).where('submission_id', '=', id).execute();
  }
}

export type DataSubjectStore = ReturnType<typeof dataSubjectStore>;
