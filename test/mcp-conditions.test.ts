// The tools that take a REST body (update_form, create_destination, update_destination) list and
// check the same conditional requirements as the OpenAPI document: an agent reads "webhook_url is
// required when webhook_enabled is true" in the tool's inputSchema, and a call that breaks it gets the
// REST route's own field errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Ajv } from 'ajv';
import { bearer, createForm } from './helpers.ts';
import { callError, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { CreateDestinationBody, UpdateDestinationBody } from '../src/delivery/schemas.ts';
import { UpdateFormBody } from '../src/forms/schemas.ts';

const CONDITIONS = { update_form: UpdateFormBody, create_destination: CreateDestinationBody, update_destination: UpdateDestinationBody };

describe('MCP tools keep the conditional requirements of the REST bodies they take', () => {
  let t: McpApp;
  let client: Client;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;

  before(async () => {
    t = await startMcpApp();
    key = await t.createKey('conditions@example.com');
    form = await createForm(t, key);
    client = await t.connect(key);
  });
  after(async () => {
    await t?.close();
  });

  it("lists each body's if/then rules in the tool's inputSchema, and a client's own validator applies them", async () => {
    const { tools } = await client.listTools();
    for (const [name, body] of Object.entries(CONDITIONS)) {
      const listed = tools.find((tool) => tool.name === name)!.inputSchema as Record<string, unknown>;
      const rules = (body as unknown as { allOf: unknown[] }).allOf;
      assert.ok(rules.length > 0, `${name}: the REST body has conditions`);
      assert.deepEqual(listed.allOf, rules, `${name}: the tool lists the REST body's conditions`);
    }
    // What an agent's client would check before calling, with nothing of Intake's.
    const ajv = new Ajv({ strict: false });
    const updateForm = ajv.compile(tools.find((tool) => tool.name === 'update_form')!.inputSchema);
    assert.equal(updateForm({ form_id: form.id, webhook_enabled: true, webhook_url: null }), false);
    assert.equal(updateForm({ form_id: form.id, webhook_enabled: true }), true, 'on update, what is left out stays as stored');
    const createDestination = ajv.compile(tools.find((tool) => tool.name === 'create_destination')!.inputSchema);
    // An email destination needs recipients, recipients_role or both: the body leaves that choice to
    // the service (the next test shows both surfaces refuse neither alike), and says the rest.
    assert.equal(createDestination({ form_id: form.id, type: 'email', recipients: ['a@example.com'] }), true);
    assert.equal(createDestination({ form_id: form.id, type: 'email', recipients_role: 'editor' }), true);
    assert.equal(createDestination({ form_id: form.id, type: 'email', recipients: ['a@example.com'], url: 'https://example.com/hook' }), false, 'a webhook URL does not apply to an email destination');
  });

  it('answers a call that breaks them with the field errors the REST route gives', async () => {
    const cases: Array<{ tool: string; args: Record<string, unknown>; method: string; url: string }> = [
      { tool: 'update_form', args: { webhook_enabled: true, webhook_url: null }, method: 'PUT', url: `/api/forms/${form.id}` },
      { tool: 'create_destination', args: { type: 'email' }, method: 'POST', url: `/api/forms/${form.id}/destinations` },
      { tool: 'create_destination', args: { type: 'email', recipients: ['a@example.com'], url: 'https://example.com/hook' }, method: 'POST', url: `/api/forms/${form.id}/destinations` },
    ];
    for (const { tool, args, method, url } of cases) {
      const error = await callError(client, tool, { form_id: form.id, ...args });
      const rest = await t.app.inject({ method: method as 'POST', url, headers: bearer(key), payload: args });
      assert.equal(rest.statusCode, 422, `${tool}: ${rest.body}`);
      assert.equal(error.code, 'validation_error');
      assert.deepEqual(error.details, rest.json().errors ?? rest.json().error?.details, `${tool} ${JSON.stringify(args)}`);
    }
  });
});
