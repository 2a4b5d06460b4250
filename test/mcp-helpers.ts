// MCP tests drive the real server over HTTP with the SDK's own client, as an agent would.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers.ts';
import { startPipelineApp } from './pipeline-helpers.ts';

export interface McpApp extends TestApp {
  url: string;
  connect(key: string): Promise<Client>;
  /** A raw POST to /mcp, for what the SDK's client never sends. */
  post(key: string | null, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** `pipeline`: with the processing and delivery workers running, as `intake serve` has them. */
export async function startMcpApp(env: Record<string, string> = {}, options: { pipeline?: boolean } = {}): Promise<McpApp> {
  const t = options.pipeline ? await startPipelineApp(env) : await startTestApp(env);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `${address}/mcp`;
  const clients: Client[] = [];
  return {
    ...t,
    url,
    async connect(key) {
      const client = new Client({ name: 'intake-tests', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      clients.push(client);
      return client;
    },
    post(key, body, headers = {}) {
      return fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(key && { authorization: `Bearer ${key}` }),
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await t.close();
    },
  };
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const listed = new WeakMap<Client, Awaited<ReturnType<Client['listTools']>>['tools']>();

async function toolsOf(client: Client) {
  let tools = listed.get(client);
  if (!tools) {
    tools = (await client.listTools()).tools;
    listed.set(client, tools);
  }
  return tools;
}

/** Calls a tool and checks its structuredContent against the outputSchema tools/list gave. */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.notEqual(result.isError, true, `${name} failed: ${JSON.stringify(result.content)}`);
  const tool = (await toolsOf(client)).find((t) => t.name === name);
  assert.ok(tool?.outputSchema, `${name} has an output schema`);
  const validate = ajv.compile(tool.outputSchema);
  assert.ok(validate(result.structuredContent), `${name} output: ${ajv.errorsText(validate.errors)}`);
  const text = result.content.find((c) => c.type === 'text');
  assert.deepEqual(JSON.parse((text as { text: string }).text), result.structuredContent, 'the text content is the structured content');
  return result.structuredContent;
}

/** Calls a tool that must fail, and returns its error. */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.equal(result.isError, true, `${name} should fail with ${JSON.stringify(args)}`);
  const text = result.content.find((c) => c.type === 'text') as { text: string };
  return (JSON.parse(text.text) as { error: { code: string; message: string; details?: Record<string, string[]> } }).error;
}
