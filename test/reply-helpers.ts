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

/** Passes the draft gate but not the auto gate on FAQ (level low): quoted from the subscription answer, the next-best passage being Canada's. */
export const UNSURE = 'Are customs fees paid when I cancel my subscription?';
export const UNSURE_ALTERNATIVE = 'Customs fees are paid on delivery.';

export interface Replied {
  reply_status: string;
  reply_subject: string | null;
  reply_content: string | null;
  reply_reason: string | null;
  reply_confidence?: { level: string; score: number; quoted: Array<{ passage: number; heading: string | null; sentence: string }>; alternative: { passage: number; heading: string | null; sentence: string; replaces: string } | null } | null;
  replied_at: string | null;
  processing_status: string;
  processing_reason: string | null;
}

export async function createKnowledgeBase(t: TestApp, key: string, content = FAQ, signature: string | null = SIGNATURE): Promise<string> {
  const response = await t.request({ method: 'POST', url: '/api/knowledge_bases', headers: bearer(key), payload: { name: 'FAQ', content, signature } });
  assert.equal(response.statusCode, 201, response.body);
  return (response.json() as { id: string }).id;
}

