// An agent triages over MCP (read, unread, done, not done, by ids or by a where) and the owner sees
// it: the REST API and the dashboard show the same states, and each call is in the audit log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { bearer, createForm } from './helpers.ts';
import { callError, callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { DashboardClient } from './dashboard-helpers.ts';
import { storeProcessed } from './triage-helpers.ts';

const EMAIL = 'agent-owner@example.com';

describe('read and done over MCP', () => {
  let t: McpApp;
  let client: Client;
  let key: string;
  let owner: DashboardClient;
  let formId: string;
  let ids: string[] = [];

  before(async () => {
    t = await startMcpApp();
    owner = new DashboardClient(t);
    await owner.setUp(EMAIL);
    key = await t.createKey(EMAIL);
    client = await t.connect(key);
    formId = (await createForm(t, key)).id;
    ids = await storeProcessed(t, formId, 4, (i) => ({ name: `Person ${i}`, email: `p${i}@example.com`, message: `Order number ${i}` }));
  });
  after(() => t?.close());

  const dashboardRow = async (tab: string, id: string) => {
    const page = await owner.get(`/forms/${formId}/inbox?tab=${tab}`);
    return new RegExp(`<tr class="(read|unread)" data-id="${id}"`).exec(page.body)?.[1] ?? null;
  };

  it('marks read and done by ids and by a where, and the dashboard shows it', async () => {
    const read = await callOk(client, 'mark_read', { form_id: formId, submission_ids: [ids[0]] });
    assert.deepEqual(read.succeeded, [ids[0]]);
    const got = await callOk(client, 'get_submission', { form_id: formId, submission_id: ids[0] });
    assert.equal(got.read, true);
    assert.ok(got.read_at);
    assert.equal(await dashboardRow('inbox', ids[0]!), 'read');
    assert.equal(await dashboardRow('inbox', ids[1]!), 'unread');

    const done = await callOk(client, 'mark_done', { form_id: formId, where: { text: 'order number 1' } });
    assert.deepEqual([done.matched, done.succeeded, done.more], [1, [ids[1]], false]);
    const listed = await callOk(client, 'list_submissions', { form_id: formId, done: true });
    assert.deepEqual(listed.submissions.map((s: { id: string; done: boolean }) => [s.id, s.done]), [[ids[1], true]]);
    assert.equal((await callOk(client, 'list_submissions', { form_id: formId, done: false })).submissions.length, 3);
    assert.equal((await callOk(client, 'list_submissions', { form_id: formId })).submissions.length, 4, 'the inbox filter keeps done ones unless asked');
    const rest = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions?done=true`, headers: bearer(key) });
    assert.deepEqual(rest.json().data.map((s: { id: string }) => s.id), [ids[1]]);
    assert.equal(await dashboardRow('done', ids[1]!), 'unread', "the agent's triage is in the dashboard's Done tab");
    assert.equal(await dashboardRow('inbox', ids[1]!), null);

    const back = await callOk(client, 'mark_not_done', { form_id: formId, submission_ids: [ids[1]] });
    assert.deepEqual(back.succeeded, [ids[1]]);
    assert.equal(await dashboardRow('inbox', ids[1]!), 'unread');
    await callOk(client, 'mark_unread', { form_id: formId, where: { filter: 'all' } });
    assert.equal(await dashboardRow('inbox', ids[0]!), 'unread');
  });

  it('reports ids it cannot find, refuses a bad selection, and audits each call', async () => {
    const marked = await callOk(client, 'mark_done', { form_id: formId, submission_ids: [ids[2], 'no-such-id'] });
    assert.deepEqual(marked.succeeded, [ids[2]]);
    assert.deepEqual(marked.failed.map((f: { submission_id: string; code: string }) => [f.submission_id, f.code]), [['no-such-id', 'submission_not_found']]);
    assert.equal((await callError(client, 'mark_done', { form_id: formId })).code, 'validation_error');
    const tools = (await client.listTools()).tools;
    for (const name of ['mark_read', 'mark_unread', 'mark_done', 'mark_not_done']) {
      const hints = tools.find((tool) => tool.name === name)?.annotations;
      assert.equal(hints?.readOnlyHint, false, name);
      assert.equal(hints?.destructiveHint, false, name);
    }
    const { entries } = await callOk(client, 'list_audit', { page_size: 100 });
    const operations = entries.filter((e: { target_id: string }) => e.target_id === formId).map((e: { operation: string }) => e.operation);
    for (const name of ['mark_read', 'mark_done', 'mark_not_done', 'mark_unread']) assert.ok(operations.includes(name), `${name} audited: ${operations}`);
  });
});
