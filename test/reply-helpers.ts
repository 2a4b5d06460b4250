// Shared by the smart-reply tests: a form schema with a name, an email and a honeypot, and a knowledge base.
import assert from 'node:assert/strict';
import { FAQ } from './fixtures.ts';
import { bearer, type TestApp } from './helpers.ts';

export const REPLY_SCHEMA = {
  fields: [
    { name: 'name', type: 'string' },
    { name: 'email', type: 'email' },
    { name: 'message', type: 'string', rules: [{ op: 'max_length', value: 5000 }] },
    { name: 'website', type: 'string', rules: [{ op: 'honeypot' }] },
  ],
};
export const SIGNATURE = 'The Shop team';
export const CANADA = 'Do you ship to Canada? How long does it take?';
/** What FAQ answers to CANADA. */
export const CANADA_ANSWER = 'Yes. Orders to Canada arrive within 5 to 8 working days.';

export interface Replied {
  reply_status: string;
  reply_subject: string | null;
  reply_content: string | null;
  reply_reason: string | null;
  replied_at: string | null;
  processing_status: string;
  processing_reason: string | null;
}

export async function createKnowledgeBase(t: TestApp, key: string, content = FAQ, signature: string | null = SIGNATURE): Promise<string> {
  const response = await t.request({ method: 'POST', url: '/api/knowledge_bases', headers: bearer(key), payload: { name: 'FAQ', content, signature } });
  assert.equal(response.statusCode, 201, response.body);
  return (response.json() as { id: string }).id;
}

