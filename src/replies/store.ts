// The only code that reads and writes smart replies once drafted: edits, sends and their claims.
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { fromJson, toBool } from '../db/values.ts';
import type { FieldsSchema } from '../forms/field-schema.ts';
import type { ReplyConfidence } from './evidence.ts';

/** What sending a reply needs: the reply, the submission's data and schema, the form and its owner. */
export interface OutgoingReply {
  submissionId: string;
  formId: string;
  status: 'pending' | 'completed' | 'sent' | 'failed';
  subject: string | null;
  content: string | null;
  spam: boolean;
  data: Record<string, unknown>;
  fields: FieldsSchema['fields'];
  form: { name: string; mode: 'draft' | 'auto'; replyEmailField: string | null; smartReply: boolean; knowledgeBaseId: string | null };
  owner: { email: string; replyTo: string | null };
}

type Executor = Db | Transaction<Tables>;

export function replyStore(db: Db) {
  return {
    async load(submissionId: string, executor: Executor = db): Promise<OutgoingReply | null> {
      const row = await executor
        .selectFrom('submissions as s')
        .innerJoin('forms as f', 'f.id', 's.form_id')
        .innerJoin('form_versions as v', 'v.id', 's.version_id')
        .innerJoin('accounts as a', 'a.id', 'f.account_id')
        .select([
          's.id', 's.form_id', 's.reply_status', 's.reply_subject', 's.reply_content', 's.spam_flag', 's.data', 'v.fields_schema',
          'f.name', 'f.smart_replies_mode', 'f.reply_email_field', 'f.smart_reply_enabled', 'f.knowledge_base_id', 'a.email', 'a.reply_to_email',
        ])
        .where('s.id', '=', submissionId)
        .executeTakeFirst();
      if (!row) return null;
      return {
        submissionId: row.id,
        formId: row.form_id,
        status: row.reply_status,
        subject: row.reply_subject,
        content: row.reply_content,
        spam: toBool(row.spam_flag),
        data: fromJson(row.data) as Record<string, unknown>,
        fields: (fromJson(row.fields_schema) as FieldsSchema).fields,
        form: {
          name: row.name, mode: row.smart_replies_mode, replyEmailField: row.reply_email_field,
          smartReply: toBool(row.smart_reply_enabled), knowledgeBaseId: row.knowledge_base_id,
        },
        owner: { email: row.email, replyTo: row.reply_to_email },
      };
    },

    /**
     * Takes the right to send a drafted reply. Refused when it was sent, or while someone else's send
     * is under way; the same claimant (a job run again after a crash) takes it back, and a claim older
     * than `staleBefore` is taken over. Returns the Message-ID the send must use.
     */
    async claim(submissionId: string, claimant: string, now: string, staleBefore: string, messageId: string): Promise<string | null> {
      const claimed = await db
        .updateTable('submissions')
        .set((eb) => ({ reply_sending_at: now, reply_sending_by: claimant, reply_message_id: eb.fn.coalesce('reply_message_id', eb.val(messageId)) }))
        .where('id', '=', submissionId)
        .where('reply_status', 'in', ['completed', 'failed'])
        .where('reply_content', 'is not', null)
        .where((eb) => eb.or([eb('reply_sending_at', 'is', null), eb('reply_sending_by', '=', claimant), eb('reply_sending_at', '<', staleBefore)]))
        .returning('reply_message_id')
        .executeTakeFirst();
      return claimed ? claimed.reply_message_id : null;
    },

    /** The send went through: `sent` for good, once. */
    async markSent(submissionId: string, claimant: string, at: string): Promise<boolean> {
      const updated = await db
        .updateTable('submissions')
        .set({ reply_status: 'sent', replied_at: at, reply_reason: null, reply_sending_at: null, reply_sending_by: null })
        .where('id', '=', submissionId)
        .where('reply_sending_by', '=', claimant)
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n;
    },

    /** The send did not go through: the claim is given up, with the reason when it is final. */
    async release(submissionId: string, claimant: string, failure?: string): Promise<void> {
      await db
        .updateTable('submissions')
        .set({ reply_sending_at: null, reply_sending_by: null, ...(failure !== undefined && { reply_status: 'failed', reply_reason: failure.slice(0, 500) }) })
        .where('id', '=', submissionId)
        .where('reply_sending_by', '=', claimant)
        .where('reply_status', '!=', 'sent')
        .execute();
    },

    /** A reason on a reply that stays a draft (no address to send it to, no mail server). */
    /** Who sent the reply (their email), once it is sent. */
    async sentBy(submissionId: string, member: string | null): Promise<void> {
      await db.updateTable('submissions').set({ reply_sent_by: member }).where('id', '=', submissionId).where('reply_status', '=', 'sent').execute();
    },

    async note(submissionId: string, reason: string): Promise<void> {
      await db.updateTable('submissions').set({ reply_reason: reason }).where('id', '=', submissionId).where('reply_status', '=', 'completed').execute();
    },

    /** The owner's edit, or a new draft: refused once sent or while a send is under way. */
    /** `editedBy`: the member who edits (their email); a new draft without one (the pipeline's) clears it. */
    async saveDraft(submissionId: string, draft: { subject?: string | null; content?: string; reason?: string | null; passages?: number[] | null; confidence?: ReplyConfidence | null; editedBy?: string | null }): Promise<boolean> {
      const updated = await db
        .updateTable('submissions')
        .set({
          ...(draft.subject !== undefined && { reply_subject: draft.subject }),
          ...(draft.content !== undefined && { reply_content: draft.content, reply_status: 'completed' as const }),
          ...(draft.reason !== undefined && { reply_reason: draft.reason }),
          ...(draft.passages !== undefined && { reply_passages: draft.passages === null ? null : JSON.stringify(draft.passages) }),
          ...(draft.confidence !== undefined && { reply_confidence: draft.confidence === null ? null : JSON.stringify(draft.confidence) }),
          ...((draft.editedBy !== undefined || draft.content !== undefined) && { reply_edited_by: draft.editedBy ?? null }),
        })
        .where('id', '=', submissionId)
        .where('reply_status', '!=', 'sent')
        .where('reply_sending_at', 'is', null)
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n;
    },
  };
}

export type ReplyStore = ReturnType<typeof replyStore>;
