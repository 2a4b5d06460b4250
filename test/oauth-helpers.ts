// An OAuth app's side and a browser's, over requests: registration, the authorization URL with PKCE,
// the code exchange, and following the redirects through the consent page (oauth-security.test.ts,
// teams-oauth.test.ts).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { DashboardClient } from './dashboard-helpers.ts';
import type { TestApp } from './helpers.ts';

export const CALLBACK_A = 'http://127.0.0.1:4001/callback';
export const CALLBACK_B = 'http://localhost:4002/callback';

type Reply = Awaited<ReturnType<TestApp['request']>>;

export async function register(t: TestApp, metadata: Record<string, unknown> = {}): Promise<Reply> {
  return t.request({
    method: 'POST', url: '/oauth/register', headers: { 'content-type': 'application/json' },
    payload: { client_name: 'Web client', redirect_uris: [CALLBACK_A, CALLBACK_B], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...metadata },
  });
}

/** An app's side of one authorization: its URL (PKCE S256) and the code exchange. */
export function authorization(t: TestApp, origin: string, clientId: string, redirectUri: string) {
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'full', resource: `${origin}/mcp`,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', state: 'xyz',
  });
  return {
    url: `/oauth/authorize?${params}`,
    async exchange(code: string): Promise<{ access_token: string; refresh_token: string }> {
      const response = await token(t, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier, resource: `${origin}/mcp` });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    },
  };
}

export const token = (t: TestApp, fields: Record<string, string>) =>
  t.request({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

export const location = (response: Reply) => String(response.headers.location ?? '');

/**
 * Follows a browser's redirects from an authorization URL: answers the consent page with Allow when
 * `allow`, and returns where the chain stopped (the app's redirect, or a page of ours) and the
 * consent pages it was shown.
 */
export async function authorize(browser: DashboardClient, url: string, allow: boolean): Promise<{ stoppedAt: string; pages: string[] }> {
  const pages: string[] = [];
  let at = url;
  let response = await browser.get(at);
  for (let hops = 0; hops < 10; hops++) {
    if (response.statusCode === 200 && allow && /name="decision" value="allow"/.test(response.body)) {
      pages.push(response.body);
      response = await browser.post(at, { decision: 'allow', scope: 'full' });
      continue;
    }
    if (response.statusCode !== 303 && response.statusCode !== 302) return { stoppedAt: `page ${at} ${response.statusCode}`, pages };
    const to = new URL(location(response), 'http://localhost');
    if (to.origin !== 'http://localhost') return { stoppedAt: to.href, pages };
    at = to.pathname + to.search;
    response = await browser.get(at);
  }
  throw new Error('too many redirects');
}

