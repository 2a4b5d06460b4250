// The MCP tool get_file (issue 34): a file's metadata and a short-lived signed link that downloads
// the uploaded bytes, never the bytes themselves; another submission's file is not found.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createForm, pathOf } from './helpers.ts';
import { callError, callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';

const SCHEMA = { fields: [{ name: 'name', type: 'string', required: true }, { name: 'cv', type: 'file', rules: [{ op: 'accept', value: ['application/pdf'] }] }] };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('MCP get_file', () => {
  let t: McpApp;
  let client: Client;
  before(async () => {
    t = await startMcpApp();
    const key = await t.createKey();
    client = await t.connect(key);
  });
  after(() => t?.close());

  it('gives the metadata and a 15-minute link that downloads the bytes', async () => {
    const key = await t.createKey('files@example.com');
    const agent = await t.connect(key);
    const form = await createForm(t, key, { fields_schema: SCHEMA });
    const origin = new URL(t.url).origin;
    const post = async (file: boolean) => {
      const body = new FormData();
      body.append('name', 'Ada');
      if (file) body.append('cv', new Blob([PDF]), 'cv.pdf');
      const response = await fetch(`${origin}${pathOf(String(form.html_endpoint))}`, { method: 'POST', body, headers: { accept: 'application/json' } });
      assert.equal(response.status, 201);
      return response.json() as Promise<{ id: string; data: { cv?: Array<{ id: string; sha256: string }> } }>;
    };
    const submission = await post(true);
    const other = await post(false);
    const fileId = submission.data.cv![0]!.id;

    const file = await callOk(agent, 'get_file', { submission_id: submission.id, file_id: fileId });
    assert.deepEqual({ ...file, url: undefined, expires_at: undefined }, {
      id: fileId, submission_id: submission.id, field: 'cv', filename: 'cv.pdf', content_type: 'application/pdf', size: PDF.length, sha256: submission.data.cv![0]!.sha256, url: undefined, expires_at: undefined,
    });
    const left = Date.parse(file.expires_at) - Date.now();
    assert.ok(left > 14 * 60_000 && left <= 15 * 60_000, `expires in ${left} ms`);
    const link = new URL(file.url);
    const downloaded = await fetch(`${origin}${link.pathname}${link.search}`);
    assert.equal(downloaded.status, 200);
    assert.ok(Buffer.from(await downloaded.arrayBuffer()).equals(PDF));

    assert.match((await callError(agent, 'get_file', { submission_id: other.id, file_id: fileId })).code, /not_found$/, 'a file of another submission');
    assert.match((await callError(client, 'get_file', { submission_id: submission.id, file_id: fileId })).code, /not_found$/, "another owner's file");
  });
});
