// The tools that let an agent do what the REST API and the dashboard do: destinations, reply-draft
// edits (mcp-replies.test.ts), the account, counts over time, bulk actions; the forms' schemas as
// resources and the two prompts. Every call goes through the SDK's client; callOk validates each
// structuredContent against the tool's outputSchema.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Webhook } from 'standardwebhooks';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm } from './helpers.ts';
import { callError, callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { settled, submit, waitFor } from './pipeline-helpers.ts';
import { bulkTools } from '../src/mcp/tools/bulk.ts';
import { destinationTools } from '../src/mcp/tools/destinations.ts';
import { accountTools } from '../src/mcp/tools/account.ts';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('MCP destinations, account, stats, bulk actions, resources and prompts', () => {
  let t: McpApp;
  let receiver: FakeProvider;
  let client: Client;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  const called = new Set<string>();
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    called.add(name);
    return callOk(client, name, args);
  };

  before(async () => {
    receiver = await startFakeProvider((request) => (request.path.startsWith('/failing') ? { status: 500, body: { error: 'down' } } : { status: 200, body: { ok: true } }));
    t = await startMcpApp({ INTAKE_OUTBOUND_ALLOW: '127.0.0.1', INTAKE_DELIVERY_MAX_ATTEMPTS: '1', INTAKE_DELIVERY_TIMEOUT_MS: '2000' }, { pipeline: true });
    key = await t.createKey('more@example.com');
    form = await createForm(t, key);
    client = await t.connect(key);
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('creates, reads, changes, tests, re-keys and deletes a destination, the secret shown only when made', async () => {
    const created = await ok('create_destination', { form_id: form.id, type: 'webhook', url: `${receiver.url}/hook`, name: 'CRM' });
    assert.match(created.secret, /^whsec_/);
    assert.equal(created.enabled, true);
    const destinationId = created.id as string;
    const got = await ok('get_destination', { form_id: form.id, destination_id: destinationId });
    assert.equal(got.name, 'CRM');
    assert.equal(got.secret, undefined, 'the secret is never shown again');
    assert.deepEqual((await ok('list_destinations', { form_id: form.id })).destinations.map((d: { id: string }) => d.id), [destinationId]);
    assert.equal((await ok('update_destination', { form_id: form.id, destination_id: destinationId, name: 'CRM (EU)', deliver_spam: true })).name, 'CRM (EU)');
    assert.equal((await ok('disable_destination', { form_id: form.id, destination_id: destinationId })).enabled, false);
    assert.equal((await ok('enable_destination', { form_id: form.id, destination_id: destinationId })).enabled, true);

    const tested = await ok('test_destination', { form_id: form.id, destination_id: destinationId });
    assert.equal(tested.delivered, true);
    assert.equal(tested.delivery.log[0].status_code, 200);
    assert.equal(tested.delivery.log[0].untrusted_content.response_body, '{"ok":true}');
    const sample = receiver.requests.find((r) => r.path === '/hook')!;
    new Webhook(created.secret).verify(sample.raw, sample.headers as Record<string, string>); // signed with the secret shown once

    const rekeyed = await ok('regenerate_destination_secret', { form_id: form.id, destination_id: destinationId });
    assert.match(rekeyed.secret, /^whsec_/);
    assert.notEqual(rekeyed.secret, created.secret);
    await ok('test_destination', { form_id: form.id, destination_id: destinationId });
    const second = receiver.requests.filter((r) => r.path === '/hook')[1]!;
    assert.throws(() => new Webhook(created.secret).verify(second.raw, second.headers as Record<string, string>), 'the old secret no longer verifies');
    new Webhook(rekeyed.secret).verify(second.raw, second.headers as Record<string, string>);

    // The same rules as the REST API: the SSRF policy, fields of another type, the type fixed.
    const email = await ok('create_destination', { form_id: form.id, type: 'email', recipients: ['Team@Example.com'] });
    assert.deepEqual(email.recipients, ['team@example.com']);
    assert.equal(email.secret, undefined);
    assert.deepEqual((await callError(client, 'create_destination', { form_id: form.id, type: 'email', url: 'https://x.example' })).details?.url, ['does not apply to an email destination']);
    assert.equal((await callError(client, 'create_destination', { form_id: form.id, type: 'webhook', url: 'http://169.254.169.254/latest' })).code, 'validation_error');
    assert.equal((await callError(client, 'update_destination', { form_id: form.id, destination_id: email.id, type: 'slack' })).code, 'validation_error');
    assert.equal((await callError(client, 'regenerate_destination_secret', { form_id: form.id, destination_id: email.id })).code, 'validation_error');

    assert.equal((await ok('delete_destination', { form_id: form.id, destination_id: email.id })).id, email.id);
    assert.equal((await callError(client, 'get_destination', { form_id: form.id, destination_id: email.id })).code, 'not_found');
    const rest = await t.request({ method: 'GET', url: `/api/forms/${form.id}/destinations`, headers: bearer(key) });
    assert.deepEqual(rest.json().destinations.map((d: { id: string }) => d.id), [destinationId], 'the REST API sees the same');
  });

  it('reads the account as /api/account shows it', async () => {
    const account = await ok('get_account');
    const rest = await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) });
    assert.deepEqual(account, rest.json());
    assert.equal(account.email, 'more@example.com');
    assert.equal(account.plan, 'free');
    assert.equal(account.credits.remaining, 50);
  });

  let ids: string[] = [];

  it('marks and deletes many submissions by ids or by a where, reporting each that could not be changed', async () => {
    ids = [];
    for (let i = 0; i < 6; i++) ids.push(await submit(t, form.endpoint, { name: `P${i}`, email: `p${i}@example.com`, message: i < 2 ? `cheap pills ${i}` : `question ${i}` }));
    for (const id of ids) await settled(t, key, form.id, id);

    const marked = await ok('mark_spam', { form_id: form.id, submission_ids: [ids[0], ids[1], 'no-such-id'] });
    assert.deepEqual(marked.succeeded, [ids[0], ids[1]]);
    assert.deepEqual(marked.failed.map((f: { submission_id: string; code: string }) => [f.submission_id, f.code]), [['no-such-id', 'submission_not_found']]);
    assert.equal(marked.more, false);
    assert.equal((await ok('get_form', { form_id: form.id })).spam_count, 2);

    // where's filter defaults to spam for mark_not_spam: the text matches both, in the spam folder.
    const back = await ok('mark_not_spam', { form_id: form.id, where: { text: 'cheap pills' } });
    assert.deepEqual([...back.succeeded].sort(), [ids[0], ids[1]].sort());
    assert.equal((await ok('get_form', { form_id: form.id })).spam_count, 0);
    const none = await ok('mark_not_spam', { form_id: form.id, where: { text: 'cheap pills' } });
    assert.equal(none.matched, 0, 'nothing left in spam');

    const deleted = await ok('delete_submissions', { form_id: form.id, where: { text: 'cheap pills' } });
    assert.equal(deleted.matched, 2);
    assert.equal((await ok('get_form', { form_id: form.id })).submission_count, 4);
    assert.equal((await ok('delete_submissions', { form_id: form.id, submission_ids: [ids[2]] })).succeeded[0], ids[2]);
    ids = ids.slice(3);

    assert.equal((await callError(client, 'delete_submissions', { form_id: form.id })).code, 'validation_error');
    assert.equal((await callError(client, 'delete_submissions', { form_id: form.id, submission_ids: [ids[0]], where: { text: 'x' } })).code, 'validation_error');
    assert.equal((await callError(client, 'delete_submissions', { form_id: form.id, where: {} })).code, 'validation_error');
    const tooMany = Array.from({ length: 501 }, (_, i) => `id-${i}`);
    assert.deepEqual((await callError(client, 'mark_spam', { form_id: form.id, submission_ids: tooMany })).details, { submission_ids: ['must NOT have more than 500 items'] });
    const tools = (await client.listTools()).tools;
    const hints = (name: string) => tools.find((tool) => tool.name === name)!.annotations!;
    assert.equal(hints('delete_submissions').destructiveHint, true);
    assert.equal(hints('mark_spam').destructiveHint, false);

    // Read and done, by ids (mcp-triage.test.ts covers them with the dashboard).
    for (const name of ['mark_read', 'mark_unread', 'mark_done', 'mark_not_done']) {
      assert.deepEqual((await ok(name, { form_id: form.id, submission_ids: [ids[0]] })).succeeded, [ids[0]], name);
    }

    const { entries } = await ok('list_audit', { page_size: 100 });
    assert.ok(entries.some((e: { operation: string; target_id: string }) => e.operation === 'delete_submissions' && e.target_id === form.id));
  });

  it('counts received, spam, replied and failed deliveries per day and per week from the indexes', async () => {
    const now = Date.now();
    const { db } = t.database;
    // Spread the three remaining submissions over time, one of them spam and one replied to.
    await db.updateTable('submissions').set({ created_at: new Date(now - 10 * DAY_MS).toISOString() }).where('id', '=', ids[0]!).execute();
    await db.updateTable('submissions').set({ created_at: new Date(now - 3 * DAY_MS).toISOString() }).where('id', '=', ids[1]!).execute();
    await ok('mark_spam', { form_id: form.id, submission_ids: [ids[1]] });
    await db.updateTable('submissions').set({ reply_status: 'sent', replied_at: new Date(now - DAY_MS).toISOString() }).where('id', '=', ids[2]!).execute();
    // A destination that answers 500 fails for good on its one attempt.
    const failing = await ok('create_destination', { form_id: form.id, type: 'webhook', url: `${receiver.url}/failing` });
    await submit(t, form.endpoint, { name: 'Late', email: 'late@example.com' });
    await waitFor('a failed delivery', async () => {
      const { deliveries } = await callOk(client, 'list_deliveries', { form_id: form.id, destination_id: failing.id });
      return deliveries.find((d: { status: string }) => d.status === 'failed');
    });

    const from = isoDay(now - 13 * DAY_MS);
    const stats = await ok('get_submission_stats', { form_id: form.id, from, to: isoDay(now) });
    assert.equal(stats.interval, 'day');
    assert.equal(stats.periods.length, 14);
    const on = (ms: number) => stats.periods.find((p: { start: string }) => p.start === isoDay(ms));
    assert.deepEqual(on(now - 10 * DAY_MS), { start: isoDay(now - 10 * DAY_MS), received: 1, spam: 0, replied: 0, delivery_failures: 0 });
    assert.deepEqual(on(now - 3 * DAY_MS), { start: isoDay(now - 3 * DAY_MS), received: 1, spam: 1, replied: 0, delivery_failures: 0 });
    assert.equal(on(now - DAY_MS).replied, 0, 'a reply counts on the day its submission arrived, not the day it was sent');
    assert.equal(on(now).replied, 1);
    assert.equal(on(now).received, 2, 'the replied one and the late one arrived today');
    assert.equal(on(now).delivery_failures, 1);
    assert.deepEqual(stats.totals, { received: 4, spam: 1, replied: 1, delivery_failures: 1 });

    const dashboard = await ok('get_dashboard_stats');
    assert.deepEqual(dashboard.last_7_days, { submissions: 3, spam: 1 }, 'the one moved ten days back is outside the last 7 days');
    assert.deepEqual(dashboard.last_30_days, { submissions: 4, spam: 1 });
    assert.equal(dashboard.replies_sent, 1);

    const weekly = await ok('get_submission_stats', { form_id: form.id, interval: 'week', from, to: isoDay(now) });
    assert.equal(new Date(`${weekly.from}T00:00:00Z`).getUTCDay(), 1, 'weeks start on Monday');
    assert.ok(weekly.periods.length >= 2 && weekly.periods.length <= 3);
    assert.deepEqual(weekly.totals, stats.totals);
    assert.equal(weekly.periods.reduce((sum: number, p: { received: number }) => sum + p.received, 0), 4);

    const defaults = await ok('get_submission_stats', { form_id: form.id });
    assert.equal(defaults.periods.length, 30);
    assert.equal(defaults.to, isoDay(now));
    assert.deepEqual((await callError(client, 'get_submission_stats', { form_id: form.id, from: '2020-01-01', to: '2022-01-01' })).details, {
      from: ['the range may span at most 366 days with interval day'],
    });
    assert.equal((await callError(client, 'get_submission_stats', { form_id: form.id, from: '2026-02-02', to: '2026-02-01' })).code, 'validation_error');
    assert.equal((await callError(client, 'get_submission_stats', { form_id: form.id, from: 'last week' })).code, 'validation_error');
  });

  it("offers each form's schema as a resource, and no other owner's", async () => {
    const { resources } = await client.listResources();
    const uri = `intake://forms/${form.id}/schema`;
    assert.ok(resources.some((r) => r.uri === uri && r.mimeType === 'application/json'));
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((r) => r.uriTemplate), ['intake://forms/{form_id}/schema']);
    const { contents } = await client.readResource({ uri });
    const schema = JSON.parse((contents[0] as { text: string }).text);
    assert.equal(schema.form_id, form.id);
    assert.equal(new URL(schema.endpoint).pathname, new URL(form.endpoint).pathname);
    assert.deepEqual(schema.schema.fields.map((f: { name: string }) => f.name), ['name', 'email', 'message', 'age']);

    const stranger = await t.connect(await t.createKey());
    assert.deepEqual((await stranger.listResources()).resources, []);
    await assert.rejects(stranger.readResource({ uri }), (error: { code: number }) => error.code === -32002);
    await assert.rejects(client.readResource({ uri: 'intake://forms/../../etc/passwd' }), (error: { code: number }) => error.code === -32602);
  });

  it('offers the two prompts, which name the tools to call and keep submitted text as data', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ['triage_inbox', 'summarize_last_week']);
    for (const prompt of prompts) assert.ok(prompt.description && prompt.arguments?.[0]?.name === 'form_id');
    const triage = await client.getPrompt({ name: 'triage_inbox', arguments: { form_id: form.id } });
    const text = (triage.messages[0]!.content as { text: string }).text;
    assert.ok(text.includes(form.id) && text.includes('list_submissions') && text.includes('untrusted_content'));
    const week = await client.getPrompt({ name: 'summarize_last_week' });
    assert.match((week.messages[0]!.content as { text: string }).text, /each of my forms[\s\S]*get_submission_stats/);
    await assert.rejects(client.getPrompt({ name: 'nope' }), (error: { code: number }) => error.code === -32602);
  });

  it('called every new tool successfully', () => {
    const names = [...destinationTools, ...bulkTools, ...accountTools].map((tool) => tool.name);
    assert.deepEqual(names.filter((name) => !called.has(name)), []);
  });
});
