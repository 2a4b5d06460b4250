// A member's live OAuth access token follows their membership at once (issue 39): removed, their next
// MCP call with it is 401; narrowed to viewer, their next write tool is refused (insufficient_role).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from './dashboard-helpers.ts';
import { bearer, startTestApp, type TestApp } from './helpers.ts';
import { authorization, authorize, CALLBACK_B, register } from './oauth-helpers.ts';

const OWNER = 'owner@oauth-team.example';
const PASSWORD = 'correct horse battery staple';

describe('OAuth tokens of team members', () => {
  let t: TestApp;
  let origin: string;
  let ownerKey: string;

  before(async () => {
    t = await startTestApp();
    origin = ((await t.request({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json() as { issuer: string }).issuer;
    ownerKey = await t.createKey(OWNER);
  });
  after(() => t?.close());

  /** Invites `email` as editor; the member accepts in their browser and allows an app: its access token. */
  async function memberToken(email: string): Promise<{ memberId: string; token: string }> {
    const invited = await t.request({ method: 'POST', url: '/api/members', headers: bearer(ownerKey), payload: { email, role: 'editor' } });
    assert.equal(invited.statusCode, 201, invited.body);
    const inviteToken = new URL(invited.json().invite_url).searchParams.get('token')!;
    const browser = new DashboardClient(t);
    await browser.get(`/invite?token=${inviteToken}`);
    assert.equal((await browser.post('/invite', { token: inviteToken, password: PASSWORD })).statusCode, 303);
    const client = (await register(t)).json() as { client_id: string };
    const app = authorization(t, origin, client.client_id, CALLBACK_B);
    const allowed = await authorize(browser, app.url, true);
    const code = new URL(allowed.stoppedAt).searchParams.get('code');
    assert.ok(code, allowed.stoppedAt);
    return { memberId: invited.json().member.id, token: (await app.exchange(code)).access_token };
  }

  const mcp = (token: string, body: object) => t.request({
    method: 'POST', url: '/mcp', payload: body,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
  const WRITE = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_knowledge_base', arguments: { name: 'FAQ', content: 'Q: Hours?\nA: Nine to five.' } } };

  it('removing the member makes their access token answer 401 on the next call', async () => {
    const { memberId, token } = await memberToken('leaver@oauth-team.example');
    assert.equal((await mcp(token, LIST)).statusCode, 200);
    assert.equal((await t.request({ method: 'DELETE', url: `/api/members/${memberId}`, headers: bearer(ownerKey) })).statusCode, 200);
    assert.equal((await mcp(token, LIST)).statusCode, 401);
  });

  it('narrowing the role refuses the next write tool called with the same token', async () => {
    const { memberId, token } = await memberToken('narrowed@oauth-team.example');
    const before = await mcp(token, WRITE);
    assert.equal(before.statusCode, 200);
    assert.doesNotMatch(before.body, /insufficient_role|"isError":true/, before.body);
    assert.equal((await t.request({ method: 'PATCH', url: `/api/members/${memberId}`, headers: bearer(ownerKey), payload: { role: 'viewer' } })).statusCode, 200);
    const after = await mcp(token, WRITE);
    assert.match(after.body, /insufficient_role/, after.body);
    assert.equal((await mcp(token, LIST)).statusCode, 200, 'reads still work');
  });
});
