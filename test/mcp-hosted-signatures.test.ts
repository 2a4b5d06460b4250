// The hosted service's published tool signatures, called through the SDK's client as an agent
// written for it would: each gives what Intake's own signature gives, and the owner check stays.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { bearer, createForm, pathOf } from './helpers.ts';
import { callError, callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { CANADA, createKnowledgeBase, REPLY_SCHEMA } from './reply-helpers.ts';

describe('MCP tools under the hosted service signatures', () => {
  let t: McpApp;
  let key: string;
  let client: Client;
  let formId: string;
  const ids: string[] = [];

  before(async () => {
    t = await startMcpApp();
    key = (await t.services.accounts.createKey({ email: 'hosted@example.com', name: 'agent' })).key;
    client = await t.connect(key);
    const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA });
    formId = form.id;
    for (const message of [CANADA, 'Bonjour, ou est ma commande ?', 'A third one']) {
      const r = await t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name: 'Ann', email: 'ann@example.com', message } });
      ids.push(r.json().id);
    }
    // As the pipeline leaves them (no workers run here): processed, one translated on arrival.
    await t.database.db.updateTable('submissions').set({ processing_status: 'completed' }).where('form_id', '=', formId).execute();
    await t.database.db.updateTable('submissions').set({ original_language: 'fr', translated_data: JSON.stringify({ message: 'Hello, where is my order?' }) })
      .where('id', '=', ids[1]!).execute();
  });
  after(() => t.close());

  it('get_submission, analyze_spam and translate_submission take the submission id alone', async () => {
    for (const id of ids) {
      assert.deepEqual(await callOk(client, 'get_submission', { submission_id: id }), await callOk(client, 'get_submission', { form_id: formId, submission_id: id }));
      assert.deepEqual(await callOk(client, 'analyze_spam', { submission_id: id }), await callOk(client, 'analyze_spam', { form_id: formId, submission_id: id }));
    }
    const hosted = await callOk(client, 'translate_submission', { submission_id: ids[1] });
    assert.equal(hosted.untrusted_content.translated_data.message, 'Hello, where is my order?');
    assert.deepEqual(hosted, await callOk(client, 'translate_submission', { form_id: formId, submission_id: ids[1] }));
  });

  it('draft_reply(submission_id, knowledge_base_id?) drafts as with the form given', async () => {
    const kbId = await createKnowledgeBase(t, key);
    const hosted = await callOk(client, 'draft_reply', { submission_id: ids[0], knowledge_base_id: kbId });
    assert.equal(hosted.drafted, true);
    assert.match(hosted.untrusted_content.reply_content, /Canada/);
    const intake = await callOk(client, 'draft_reply', { form_id: formId, submission_id: ids[0] });
    assert.equal(intake.drafted, false, 'the same submission: its stored draft');
    assert.equal(intake.untrusted_content.reply_content, hosted.untrusted_content.reply_content);
    const edited = await callOk(client, 'update_reply_draft', { submission_id: ids[0], reply_content: 'Yes, we do.' });
    assert.equal(edited.untrusted_content.reply_content, 'Yes, we do.');
  });

  it('summarize_submissions(form_id, limit) is sample under its other name; list_submissions(form_id, filter, limit) works', async () => {
    const hosted = await callOk(client, 'summarize_submissions', { form_id: formId, limit: 2 });
    assert.equal(hosted.analysed, 2);
    assert.deepEqual(hosted, await callOk(client, 'summarize_submissions', { form_id: formId, sample: 2 }));
    assert.deepEqual(hosted, await callOk(client, 'summarize_submissions', { form_id: formId, sample: 2, limit: 2 }));
    const differ = await callError(client, 'summarize_submissions', { form_id: formId, sample: 2, limit: 3 });
    assert.equal(differ.code, 'validation_error');
    assert.deepEqual(Object.keys(differ.details ?? {}), ['limit']);
    const listed = await callOk(client, 'list_submissions', { form_id: formId, filter: 'all', limit: 2 });
    assert.deepEqual(listed.submissions.map((s: { id: string }) => s.id), [ids[2], ids[1]]);
  });

  it("get_dashboard_stats carries the hosted service's keys beside Intake's", async () => {
    await t.database.db.updateTable('submissions').set({ spam_flag: true }).where('id', '=', ids[2]!).execute();
    const stats = await callOk(client, 'get_dashboard_stats');
    assert.equal(stats.total_forms, stats.forms);
    assert.equal(stats.total_submissions, stats.submissions);
    assert.equal(stats.spam_blocked, stats.spam_caught);
    assert.equal(stats.ai_replies, stats.replies_drafted + stats.replies_sent);
    assert.equal(stats.total_forms, 1);
    assert.equal(stats.total_submissions, 3);
  });

  it("finds a submission only among the owner's forms, and says which tools take form_id as optional", async () => {
    const otherKey = (await t.services.accounts.createKey({ email: 'other@example.com', name: 'other' })).key;
    const other = await t.connect(otherKey);
    for (const tool of ['get_submission', 'analyze_spam', 'translate_submission', 'draft_reply', 'delete_submission', 'send_reply']) {
      const error = await callError(other, tool, { submission_id: ids[0] });
      assert.equal(error.code, 'submission_not_found', tool);
    }
    assert.equal((await callError(client, 'get_submission', { submission_id: '00000000-0000-4000-8000-000000000000' })).code, 'submission_not_found');
    const { tools } = await client.listTools();
    for (const name of ['get_submission', 'analyze_spam', 'translate_submission', 'draft_reply', 'update_reply_draft', 'send_reply', 'delete_submission']) {
      const tool = tools.find((x) => x.name === name)!;
      assert.deepEqual(tool.inputSchema.required, ['submission_id'], name);
      assert.ok('form_id' in tool.inputSchema.properties!, `${name} still takes form_id`);
      assert.match(tool.description!, /form_id may be left out/, name);
    }
    const deleted = await callOk(client, 'delete_submission', { submission_id: ids[2] });
    assert.equal(deleted.id, ids[2]);
    const gone = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions/${ids[2]}`, headers: bearer(key) });
    assert.equal(gone.statusCode, 404);
  });
});
