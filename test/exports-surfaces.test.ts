// Exports from the other surfaces: the MCP tool (inline, or the count and the REST URL past 500
// rows) and the inbox's Export button (what the inbox shows, as CSV with a BOM).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { bearer, createForm, pathOf } from './helpers.ts';
import { callError, callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { DashboardClient } from './dashboard-helpers.ts';

describe('exports through MCP and the dashboard', () => {
  let t: McpApp;
  let key: string;
  let small: Awaited<ReturnType<typeof createForm>>;
  let large: Awaited<ReturnType<typeof createForm>>;
  let owner: DashboardClient;

  before(async () => {
    t = await startMcpApp();
    owner = new DashboardClient(t);
    await owner.setUp('owner@example.com');
    key = await t.createKey('owner@example.com');
    small = await createForm(t, key);
    large = await createForm(t, key);
    const ids: string[] = [];
    for (const name of ['Ann', 'Bob', 'Cy']) {
      ids.push((await t.request({ method: 'POST', url: pathOf(small.endpoint), payload: { name, email: `${name.toLowerCase()}@example.com` } })).json().id);
    }
    await t.database.db.updateTable('submissions').set({ spam_flag: true }).where('id', '=', ids[2]!).execute();
    for (let i = 0; i < 501; i++) await t.request({ method: 'POST', url: pathOf(large.endpoint), payload: { name: `P${i}`, email: `p${i}@example.com` } });
  });
  after(() => t.close());

  it('returns a small export inline, the submitter\'s words under untrusted_content', async () => {
    const client = await t.connect(key);
    const out = await callOk(client, 'export_submissions', { form_id: small.id });
    assert.equal(out.total, 2);
    assert.equal(out.download_url, null);
    assert.deepEqual(out.submissions.map((s: { untrusted_content: { data: { name: string } } }) => s.untrusted_content.data.name), ['Ann', 'Bob']);
    const spam = await callOk(client, 'export_submissions', { form_id: small.id, filter: 'spam' });
    assert.equal(spam.total, 1);
  });

  it('past 500 rows gives the count and a REST URL that downloads all of them', async () => {
    const client = await t.connect(key);
    const out = await callOk(client, 'export_submissions', { form_id: large.id, format: 'ndjson' });
    assert.equal(out.total, 501);
    assert.deepEqual(out.submissions, []);
    const url = new URL(out.download_url);
    assert.equal(url.pathname, `/api/forms/${large.id}/submissions/export`);
    const fetched = await t.request({ method: 'GET', url: `${url.pathname}${url.search}`, headers: bearer(key) });
    assert.equal(fetched.body.trimEnd().split('\n').length, 501);
    const ranged = await callOk(client, 'export_submissions', { form_id: large.id, filter: 'all', from: '2000-01-01' });
    assert.equal(ranged.total, 501, 'a date range is counted window by window');
    const bad = await callError(client, 'export_submissions', { form_id: large.id, from: 'soon' });
    assert.equal(bad.code, 'invalid_parameters');
  });

  it('the inbox has an Export button that exports what it shows', async () => {
    const inbox = await owner.get(`/forms/${small.id}/inbox?q=ann`);
    const href = /href="(\/forms\/[^"]+\/export\?[^"]*)"/.exec(inbox.body)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(href, 'an export link');
    assert.match(href, /q=ann/);
    const file = await owner.get(href);
    assert.equal(file.statusCode, 200);
    assert.match(file.headers['content-disposition'] as string, /^attachment; filename=".+\.csv"$/);
    assert.deepEqual([...file.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const rows = parse(file.body, { columns: true, bom: true }) as Array<{ name: string }>;
    assert.deepEqual(rows.map((r) => r.name), ['Ann']);
    const spamTab = parse((await owner.get(`/forms/${small.id}/export?tab=spam`)).body, { columns: true, bom: true }) as Array<{ name: string }>;
    assert.deepEqual(spamTab.map((r) => r.name), ['Cy']);
    const stranger = new DashboardClient(t);
    assert.notEqual((await stranger.get(`/forms/${small.id}/export`)).statusCode, 200);
  });
});
