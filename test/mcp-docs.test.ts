import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { toolDocs, withToolDocs } from '../src/mcp/tool-docs.ts';
import { ALL_TOOLS } from '../src/mcp/tools/index.ts';
import { runScript } from './cli.ts';
import { startMcpApp, type McpApp } from './mcp-helpers.ts';

const root = path.resolve(import.meta.dirname, '..');

const run = (args: string[]) => runScript(path.join(root, 'scripts/mcp-try.ts'), args);

describe('MCP documentation and the try-it script', () => {
  let t: McpApp;
  before(async () => {
    t = await startMcpApp();
  });
  after(() => t.close());

  it('docs/mcp.md lists exactly the tools the server defines (npm run docs:mcp writes it)', () => {
    const readme = fs.readFileSync(path.join(root, 'docs', 'mcp.md'), 'utf8');
    assert.equal(withToolDocs(readme, ALL_TOOLS), readme, 'docs/mcp.md is stale: run npm run docs:mcp');
    for (const tool of ALL_TOOLS) assert.ok(toolDocs(ALL_TOOLS).includes(`**\`${tool.name}\`**`));
  });

  it('mcp:try connects with the SDK client, prints the tools, and calls one', async () => {
    const key = await t.createKey();
    const listed = await run(['--key', key, '--url', t.url]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /Connected to intake 0\.1\.0/);
    assert.match(listed.stdout, new RegExp(`${ALL_TOOLS.length} tools for this key`));
    assert.match(listed.stdout, /write! +delete_form/);
    const called = await run(['--key', key, '--url', t.url, '--call', 'list_forms']);
    assert.equal(called.code, 0, called.stderr);
    assert.match(called.stdout, /list_forms → ok:\n\{\n {2}"forms": \[\]/);
    const refused = await run(['--key', 'ik_wrong', '--url', t.url]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Could not connect/);
    assert.equal((await run([])).code, 2);
  });
});
