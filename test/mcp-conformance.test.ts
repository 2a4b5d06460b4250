// The official MCP conformance suite (@modelcontextprotocol/conformance, run offline from
// .ci/audit, test/audit-tools.ts; without it this test skips, saying so) against Intake's /mcp, through the token-adding wrapper, for every server scenario
// that applies to a server declaring tools, resources and prompts. The others test the suite's own
// reference fixtures (a `test_simple_prompt`, `test://static-text`…) or features Intake does not
// declare (logging, completions, subscriptions, sampling, elicitation, SSE streams); docs/mcp.md
// lists them with the reason for each.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { auditMissing, conformanceSuite } from './audit-tools.ts';
import { createForm } from './helpers.ts';
import { startMcpApp, type McpApp } from './mcp-helpers.ts';
import { startTokenProxy } from './token-proxy.ts';

const SUITE = conformanceSuite();
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'];

interface Check { id: string; status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO'; errorMessage?: string }

describe('the official MCP conformance suite, server scenarios', { skip: auditMissing('@modelcontextprotocol/conformance') }, () => {
  let t: McpApp;
  let proxy: Awaited<ReturnType<typeof startTokenProxy>>;
  let out: string;
  before(async () => {
    t = await startMcpApp();
    const key = await t.createKey();
    await createForm(t, key); // so that resources/list has something to list
    proxy = await startTokenProxy(new URL(t.url).origin, key);
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-conformance-'));
  });
  after(async () => {
    await proxy?.close();
    await t?.close();
    fs.rmSync(out, { recursive: true, force: true });
  });

  for (const scenario of APPLICABLE) {
    it(scenario, async () => {
      const dir = path.join(out, scenario);
      // Asynchronously: the app under test answers from this same process.
      await promisify(execFile)(process.execPath, [SUITE!, 'server', '--url', proxy.url, '--scenario', scenario, '-o', dir], { timeout: 60_000 }).catch((error: Error & { stdout?: string }) => {
        throw new Error(`the suite failed on ${scenario}: ${error.stdout ?? error.message}`);
      });
      const [run] = fs.readdirSync(dir);
      const checks = JSON.parse(fs.readFileSync(path.join(dir, run!, 'checks.json'), 'utf8')) as Check[];
      const failed = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
      assert.deepEqual(failed, [], JSON.stringify(failed));
      assert.ok(checks.some((check) => check.status === 'SUCCESS'), `${scenario} ran its checks`);
    });
  }
});
