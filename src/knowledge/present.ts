// A knowledge base as the API shows it, for the REST routes and the MCP tools alike.
import type { KnowledgeBaseDetail } from './service.ts';
import type { KnowledgeBaseSummary } from './store.ts';

export function presentKnowledgeSummary(kb: KnowledgeBaseSummary) {
  return {
    id: kb.id, name: kb.name, signature: kb.signature, version: kb.version, passage_count: kb.passageCount,
    linked_forms: kb.linkedForms, created_at: kb.createdAt, updated_at: kb.updatedAt,
  };
}

export const presentKnowledgeBase = (kb: KnowledgeBaseDetail) => ({ ...presentKnowledgeSummary(kb), content: kb.content });
