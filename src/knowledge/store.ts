// The only code that reads and writes knowledge bases and their passages.
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { toCount, toIso } from '../db/values.ts';
import type { Passage } from './passages.ts';

export interface KnowledgeBase {
  id: string;
  accountId: string;
  name: string;
  content: string;
  signature: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface KnowledgeBaseSummary extends Omit<KnowledgeBase, 'content'> {
  passageCount: number;
  linkedForms: number;
}

export interface KnowledgeChanges {
  name?: string;
  content?: string;
  signature?: string | null;
}


function toKnowledgeBase(row: { id: string; account_id: string; name: string; content: string; signature: string | null; version: number; created_at: string | Date; updated_at: string | Date }): KnowledgeBase {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    content: row.content,
    signature: row.signature,
    version: Number(row.version),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

async function writePassages(tx: Transaction<Tables>, id: string, passages: Passage[]): Promise<void> {
  await tx.deleteFrom('knowledge_passages').where('knowledge_base_id', '=', id).execute();
  // Chunks keep each statement under the engines' limits on bound parameters.
  for (let i = 0; i < passages.length; i += 200) {
    await tx
      .insertInto('knowledge_passages')
      .values(passages.slice(i, i + 200).map((p) => ({ knowledge_base_id: id, position: p.position, heading: p.heading, body: p.body })))
      .execute();
  }
}

export function knowledgeStore(db: Db) {
  return {
    async insert(kb: KnowledgeBase, passages: Passage[]): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx
          .insertInto('knowledge_bases')
          .values({
            id: kb.id, account_id: kb.accountId, name: kb.name, content: kb.content, signature: kb.signature,
            version: kb.version, created_at: kb.createdAt, updated_at: kb.updatedAt,
          })
          .execute();
        if (passages.length > 0) await writePassages(tx, kb.id, passages);
      });
    },

    async findOwned(accountId: string, id: string): Promise<KnowledgeBase | null> {
      const row = await db.selectFrom('knowledge_bases').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return row ? toKnowledgeBase(row) : null;
    },

    async listOwned(accountId: string): Promise<KnowledgeBaseSummary[]> {
      const rows = await db
        .selectFrom('knowledge_bases as k')
        .select(['k.id', 'k.account_id', 'k.name', 'k.signature', 'k.version', 'k.created_at', 'k.updated_at'])
        .select((eb) => [
          eb.selectFrom('forms').select((f) => f.fn.countAll().as('n')).whereRef('forms.knowledge_base_id', '=', 'k.id').as('linked_forms'),
          eb.selectFrom('knowledge_passages').select((p) => p.fn.countAll().as('n')).whereRef('knowledge_passages.knowledge_base_id', '=', 'k.id').as('passage_count'),
        ])
        .where('k.account_id', '=', accountId)
        .orderBy('k.created_at', 'desc')
        .orderBy('k.id')
        .execute();
      return rows.map((row) => ({
        ...toKnowledgeBase({ ...row, content: '' }),
        linkedForms: toCount((row.linked_forms ?? 0) as number | string),
        passageCount: toCount((row.passage_count ?? 0) as number | string),
      })).map(({ content: _content, ...summary }) => summary);
    },

    async counts(id: string): Promise<{ passageCount: number; linkedForms: number }> {
      const passages = await db.selectFrom('knowledge_passages').select((eb) => eb.fn.countAll().as('n')).where('knowledge_base_id', '=', id).executeTakeFirstOrThrow();
      const forms = await db.selectFrom('forms').select((eb) => eb.fn.countAll().as('n')).where('knowledge_base_id', '=', id).executeTakeFirstOrThrow();
      return { passageCount: toCount(passages.n as number | string), linkedForms: toCount(forms.n as number | string) };
    },

    /** Applies the changes; new content replaces the passages and moves the version on, all in one transaction. */
    async update(id: string, changes: KnowledgeChanges, passages: Passage[] | null, updatedAt: string): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        const updated = await tx
          .updateTable('knowledge_bases')
          .set((eb) => ({
            ...(changes.name !== undefined && { name: changes.name }),
            ...(changes.content !== undefined && { content: changes.content }),
            ...(changes.signature !== undefined && { signature: changes.signature }),
            version: eb('version', '+', 1),
            updated_at: updatedAt,
          }))
          .where('id', '=', id)
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) return false;
        if (passages) await writePassages(tx, id, passages);
        return true;
      });
    },

    /** Deletes the knowledge base and, in the same transaction, turns smart replies off on the forms linked to it; returns their slugs. */
    async delete(id: string, now: string): Promise<string[] | null> {
      return db.transaction().execute(async (tx) => {
        const linked = await tx.selectFrom('forms').select(['id', 'slug']).where('knowledge_base_id', '=', id).orderBy('slug').execute();
        if (linked.length > 0) {
          await tx
            .updateTable('forms')
            .set({ smart_reply_enabled: false, knowledge_base_id: null, updated_at: now })
            .where('knowledge_base_id', '=', id)
            .execute();
        }
        const deleted = await tx.deleteFrom('knowledge_bases').where('id', '=', id).executeTakeFirst();
        if (deleted.numDeletedRows === 0n) return null;
        return linked.map((form) => form.slug);
      });
    },

    /** The current version of a knowledge base, or null when it is gone. */
    async version(id: string): Promise<{ version: number; signature: string | null; accountId: string } | null> {
      const row = await db.selectFrom('knowledge_bases').select(['version', 'signature', 'account_id']).where('id', '=', id).executeTakeFirst();
      return row ? { version: Number(row.version), signature: row.signature, accountId: row.account_id } : null;
    },

    async passages(id: string): Promise<Passage[]> {
      const rows = await db.selectFrom('knowledge_passages').select(['position', 'heading', 'body']).where('knowledge_base_id', '=', id).orderBy('position').execute();
      return rows.map((row) => ({ position: Number(row.position), heading: row.heading, body: row.body }));
    },

    /** Whether the account owns a knowledge base with this id (forms may only link their owner's). */
    async owns(accountId: string, id: string): Promise<boolean> {
      const row = await db.selectFrom('knowledge_bases').select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type KnowledgeStore = ReturnType<typeof knowledgeStore>;
