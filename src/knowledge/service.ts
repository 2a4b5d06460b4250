// The rules of knowledge bases: owner-scoped, size-limited, split into passages when saved, and
// deleted together with the smart replies of the forms that answer from them.
import { randomUUID } from 'node:crypto';
import { AppError, type FieldErrors } from '../http/errors.ts';
import { splitPassages, type Passage } from './passages.ts';
import { indexCache, type IndexCache } from './index-cache.ts';
import type { PassageIndex } from './retrieval.ts';
import type { KnowledgeBase, KnowledgeBaseSummary, KnowledgeStore } from './store.ts';

export interface KnowledgeInput {
  name?: string;
  content?: string;
  signature?: string | null;
}

export interface KnowledgeBaseDetail extends KnowledgeBase {
  passageCount: number;
  linkedForms: number;
}

export const knowledgeErrors = {
  notFound: () => new AppError('not_found', 404, 'Knowledge base not found'),
  // This family answers every failed check with 422 and the fields at fault.
  invalid: (details: FieldErrors) => new AppError('validation_error', 422, 'The knowledge base is not valid.', details),
};

export function knowledgeService(store: KnowledgeStore, options: { maxBytes: number; clock?: () => Date; cache?: IndexCache }) {
  const clock = options.clock ?? (() => new Date());
  const cache = options.cache ?? indexCache();

  function passagesOf(content: string): Passage[] {
    const errors: FieldErrors = {};
    if (Buffer.byteLength(content, 'utf8') > options.maxBytes) errors.content = [`must be at most ${options.maxBytes} bytes`];
    else if (content.trim() === '') errors.content = ['must not be empty'];
    if (errors.content) throw knowledgeErrors.invalid(errors);
    const passages = splitPassages(content);
    if (passages.length === 0) throw knowledgeErrors.invalid({ content: ['has no text to answer from'] });
    return passages;
  }

  async function requireOwned(accountId: string, id: string): Promise<KnowledgeBase> {
    const kb = await store.findOwned(accountId, id);
    if (!kb) throw knowledgeErrors.notFound();
    return kb;
  }

  async function detail(kb: KnowledgeBase): Promise<KnowledgeBaseDetail> {
    return { ...kb, ...(await store.counts(kb.id)) };
  }

  return {
    async create(accountId: string, input: Required<Pick<KnowledgeInput, 'name' | 'content'>> & KnowledgeInput): Promise<KnowledgeBaseDetail> {
      const passages = passagesOf(input.content);
      const now = clock().toISOString();
      const kb: KnowledgeBase = {
        id: randomUUID(), accountId, name: input.name, content: input.content, signature: input.signature ?? null,
        version: 1, createdAt: now, updatedAt: now,
      };
      await store.insert(kb, passages);
      return detail(kb);
    },

    list: (accountId: string): Promise<KnowledgeBaseSummary[]> => store.listOwned(accountId),

    async get(accountId: string, id: string): Promise<KnowledgeBaseDetail> {
      return detail(await requireOwned(accountId, id));
    },

    async update(accountId: string, id: string, input: KnowledgeInput): Promise<KnowledgeBaseDetail> {
      await requireOwned(accountId, id);
      const passages = input.content === undefined ? null : passagesOf(input.content);
      if (!(await store.update(id, input, passages, clock().toISOString()))) throw knowledgeErrors.notFound();
      return detail(await requireOwned(accountId, id));
    },

    /** Deletes it; smart replies go off on the forms that used it, whose slugs are returned. */
    async delete(accountId: string, id: string): Promise<{ knowledgeBase: KnowledgeBaseDetail; smartReplyDisabledOn: string[] }> {
      const kb = await detail(await requireOwned(accountId, id));
      const slugs = await store.delete(id, clock().toISOString());
      if (!slugs) throw knowledgeErrors.notFound();
      return { knowledgeBase: { ...kb, linkedForms: 0 }, smartReplyDisabledOn: slugs };
    },

    /** For forms: an owner may only link a knowledge base of their own. */
    owns: (accountId: string, id: string) => store.owns(accountId, id),

    /** The search index of a knowledge base as it is now, with its signature; null when it is gone. */
    async index(id: string): Promise<{ index: PassageIndex; signature: string | null; version: number } | null> {
      const current = await store.version(id);
      if (!current) return null;
      const index = await cache.get(id, current.version, () => store.passages(id));
      return { index, signature: current.signature, version: current.version };
    },
  };
}

export type KnowledgeService = ReturnType<typeof knowledgeService>;
