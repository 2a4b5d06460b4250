import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { bearer, createForm, pathOf } from './helpers.ts';
import { callError, callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { createKnowledgeBase } from './reply-helpers.ts';

const INITIALIZE = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('MCP transport and authentication', () => {
  let t: McpApp;
  before(async () => {
    t = await startMcpApp();
  });
  after(() => t.close());

  it('initializes with the server name, the package version, instructions and the current protocol', async () => {
    const key = await t.createKey();
    const client = await t.connect(key);
    assert.equal(client.getServerVersion()?.name, 'intake');
    assert.equal(client.getServerVersion()?.version, '0.1.0');
    assert.match(client.getInstructions() ?? '', /forms, endpoints|endpoint/);
    assert.match(client.getInstructions() ?? '', /untrusted_content/);
    const response = await t.post(key, INITIALIZE);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    const body = (await response.json()) as { result: { protocolVersion: string } };
    assert.equal(body.result.protocolVersion, LATEST_PROTOCOL_VERSION);
    assert.equal(response.headers.get('mcp-session-id'), null, 'stateless: no session');
  });

  it('lists tools, each with a title, description, input and output schema and all four hints', async () => {
    const client = await t.connect(await t.createKey());
    const { tools } = await client.listTools();
    assert.ok(tools.length >= 10);
    for (const tool of tools) {
      assert.ok(tool.title && tool.description && tool.description.length > 40, tool.name);
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        assert.equal(typeof tool.annotations?.[hint], 'boolean', `${tool.name} ${hint}`);
      }
    }
  });

  it('answers 401 with a Bearer challenge naming the resource metadata, for no key, a bad key and a revoked key', async () => {
    const key = await t.createKey();
    const [keyRecord] = (await t.services.accounts.listKeys()).slice(-1);
    await t.services.accounts.revokeKey(keyRecord!.id);
    for (const [label, sent] of [['none', null], ['bad', 'ik_nope'], ['revoked', key]] as const) {
      const response = await t.post(sent, INITIALIZE);
      assert.equal(response.status, 401, label);
      const challenge = response.headers.get('www-authenticate') ?? '';
      assert.match(challenge, /^Bearer /, label);
      assert.match(challenge, /resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/, label);
      assert.equal(challenge.includes('invalid_token'), sent !== null, label);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'unauthorized');
    }
    await assert.rejects(t.connect('ik_nope'), /401|Unauthorized/i);
  });

  it('serves protected-resource metadata that names /mcp', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await t.request({ method: 'GET', url: path, headers: { host: 'intake.test' } });
      assert.equal(response.statusCode, 200);
      const metadata = response.json();
      assert.equal(metadata.resource, 'http://intake.test/mcp');
      assert.deepEqual(metadata.bearer_methods_supported, ['header']);
    }
  });

  it('answers GET and DELETE with 405, a batch with 400, and a malformed body with a JSON-RPC parse error', async () => {
    const key = await t.createKey();
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(t.url, { method, headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'POST');
    }
    const batch = await t.post(key, [INITIALIZE, { ...INITIALIZE, id: 2 }]);
    assert.equal(batch.status, 400, 'batches would slip past the rate limit');
    assert.equal(((await batch.json()) as { error: { code: number } }).error.code, -32600);
    const broken = await t.post(key, '{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.equal(broken.status, 400);
    assert.equal(((await broken.json()) as { error: { code: number } }).error.code, -32700);
  });

  it('refuses text no database can store (NUL, lone surrogates) with 400 naming where it is, credit headers included', async () => {
    const key = await t.createKey();
    const call = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_form","arguments":{"name":"A\\u0000","slug":"x\\ud800"}}}';
    const response = await t.post(key, call);
    assert.equal(response.status, 400);
    const { error } = (await response.json()) as { error: { code: string; details: Record<string, string[]> } };
    assert.equal(error.code, 'validation_error');
    assert.deepEqual(Object.keys(error.details).sort(), ['params.arguments.name', 'params.arguments.slug']);
    assert.equal(response.headers.get('x-service-metered'), 'false');
  });

  it('stamps the credit headers on every authenticated MCP response', async () => {
    const response = await t.post(await t.createKey(), INITIALIZE);
    assert.equal(response.headers.get('x-service-credits-remaining'), '50');
    assert.equal(response.headers.get('x-service-metered'), 'false');
  });

  it("finds no other owner's form, submission, destination or knowledge base through any tool", async () => {
    const other = await t.createKey();
    const form = await createForm(t, other);
    const knowledgeBaseId = await createKnowledgeBase(t, other);
    const submitted = await t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name: 'Ada', email: 'ada@example.com' } });
    const submissionId = submitted.json().id as string;
    const destination = await t.request({
      method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(other), payload: { type: 'email', recipients: ['team@example.com'] },
    });
    const ids: Record<string, string> = {
      form_id: form.id, destination_id: destination.json().id, delivery_id: submissionId, submission_id: submissionId, file_id: submissionId, knowledge_base_id: knowledgeBaseId,
    };
    const client = await t.connect(await t.createKey());
    assert.deepEqual((await callOk(client, 'list_forms')).forms, []);
    const { tools } = await client.listTools();
    let tried = 0;
    for (const tool of tools) {
      const required = (tool.inputSchema.required as string[] | undefined) ?? [];
      if (!required.some((name) => name in ids)) continue;
      const args: Record<string, unknown> = {};
      for (const name of required) args[name] = ids[name] ?? (name === 'type' ? 'email' : { name: 'Eve', email: 'eve@example.com' });
      if (args.type === 'email') args.recipients = ['eve@example.com']; // what the schema's if/then requires of that type
      // A submission named without its form (the hosted service's signatures) is looked for among the caller's forms only.
      const expected = required.includes('form_id') ? 'form_not_found' : required.includes('submission_id') ? 'submission_not_found' : 'not_found';
      const error = await callError(client, tool.name, args);
      assert.equal(error.code, expected, `${tool.name}: ${JSON.stringify(error)}`);
      tried += 1;
    }
    assert.ok(tried >= 31, `every tool that takes an id was tried (${tried})`);
    assert.equal((await t.request({ method: 'GET', url: `/api/knowledge_bases/${knowledgeBaseId}`, headers: bearer(other) })).json().version, 1);
    const still = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${submissionId}`, headers: bearer(other) });
    assert.equal(still.statusCode, 200);
    assert.equal((await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(other) })).json().submission_count, 1);
  });
});

describe('MCP rate limit', () => {
  let t: McpApp;
  before(async () => {
    t = await startMcpApp({ INTAKE_MCP_RATE_LIMIT: '30' });
  });
  after(() => t.close());

  const toolCall = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_forms', arguments: {} } });

  it('answers the 31st tool call in a minute with 429 and retry_after, per key; opening a session costs nothing', async () => {
    const key = await t.createKey();
    // What a client (an inspector) sends around its calls: none of it counts.
    for (let i = 0; i < 40; i += 1) {
      assert.equal((await t.post(key, INITIALIZE)).status, 200, `initialize ${i + 1}`);
      assert.equal((await t.post(key, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
      assert.equal((await t.post(key, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status, 200);
      assert.equal((await fetch(t.url, { headers: bearer(key) })).status, 405);
    }
    for (let i = 0; i < 30; i += 1) assert.equal((await t.post(key, toolCall(i))).status, 200, `tool call ${i + 1}`);
    const limited = await t.post(key, toolCall(31));
    assert.equal(limited.status, 429);
    const body = (await limited.json()) as { error: { code: string; retry_after: number } };
    assert.equal(body.error.code, 'rate_limited');
    assert.ok(body.error.retry_after >= 1 && body.error.retry_after <= 60);
    assert.equal(limited.headers.get('x-ratelimit-remaining'), null);
    assert.equal((await t.post(await t.createKey(), toolCall(1))).status, 200, 'another key has its own budget');
    const api = await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) });
    assert.equal(api.statusCode, 200, 'the management API keeps its own budget');
  });

  it('gives an SDK client all 30 calls after it connected', async () => {
    const client = await t.connect(await t.createKey());
    for (let i = 0; i < 30; i += 1) await callOk(client, 'list_forms');
    await assert.rejects(client.callTool({ name: 'list_forms', arguments: {} }), /429|rate/i);
  });

  it('counts every request without a valid key against its IP', async () => {
    for (let i = 0; i < 30; i += 1) assert.equal((await t.post('ik_not_a_key', INITIALIZE)).status, 401, `request ${i + 1}`);
    assert.equal((await t.post('ik_not_a_key', INITIALIZE)).status, 429);
  });
});

describe('MCP Origin validation (DNS rebinding)', () => {
  const originsOf = async (env: Record<string, string>, origins: Array<string | null>) => {
    const t = await startMcpApp(env);
    try {
      const key = await t.createKey();
      const statuses: Array<number> = [];
      for (const origin of origins) statuses.push((await t.post(key, INITIALIZE, origin === null ? {} : { origin })).status);
      return statuses;
    } finally {
      await t.close();
    }
  };

  it('without a public URL: no Origin, loopback origins and the configured ones pass; any other gets 403 before the key is looked at', async () => {
    const t = await startMcpApp({ INTAKE_MCP_ALLOWED_ORIGINS: 'https://inspector.example.com, http://tools.example.org:8080' });
    try {
      const key = await t.createKey();
      const cases: Array<[string | null, number]> = [
        [null, 200], ['http://localhost:6274', 200], ['http://127.0.0.1:3000', 200], ['http://[::1]:3000', 200],
        ['https://inspector.example.com', 200], ['http://tools.example.org:8080', 200],
        ['http://evil.example.com', 403], ['https://inspector.example.com.evil.example', 403], ['http://tools.example.org', 403],
        ['null', 403], ['http://localhost.evil.example', 403], ['http://localhost:6274/path', 403],
      ];
      for (const [origin, status] of cases) {
        const response = await t.post(key, INITIALIZE, origin === null ? {} : { origin });
        assert.equal(response.status, status, `Origin ${origin}`);
        if (status === 403) assert.equal(((await response.json()) as { error: { code: number } }).error.code, -32000);
      }
      // Refused before authentication: a page elsewhere learns nothing about a key it holds or guesses.
      const unknownKey = await t.post('ik_nope', INITIALIZE, { origin: 'http://evil.example.com' });
      assert.equal(unknownKey.status, 403);
    } finally {
      await t.close();
    }
  });

  it("with INTAKE_PUBLIC_URL: its origin passes and loopback origins no longer do", async () => {
    assert.deepEqual(
      await originsOf({ INTAKE_PUBLIC_URL: 'https://forms.example.com' }, [null, 'https://forms.example.com', 'http://forms.example.com', 'http://localhost:3000']),
      [200, 200, 403, 403],
    );
  });
});
