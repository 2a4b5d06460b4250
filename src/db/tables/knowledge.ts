// Knowledge bases and their passages.
import type { Timestamp } from './columns.ts';

export interface KnowledgeBasesTable {
  id: string;
  account_id: string;
  name: string;
  content: string;
  signature: string | null;
  version: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface KnowledgePassagesTable {
  knowledge_base_id: string;
  position: number;
  heading: string | null;
  body: string;
}
