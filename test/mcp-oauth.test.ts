// OAuth end to end, as a connector in a chat assistant does it: the official SDK client discovers the
// authorization server from /mcp's 401, registers itself, sends the owner's browser (Chromium,
// through playwright-core) to authorize with PKCE, where the owner logs in and allows on the consent
// page; the client takes the code at its real loopback redirect, gets tokens, lists and calls tools,
// refreshes, and is cut off when the owner revokes it on the Integrations page. Around it: a token
// for another resource, a missing or wrong code_verifier, a read-scoped grant.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { refreshAuthorization, discoverAuthorizationServerMetadata, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Page } from 'playwright-core';
import { chromiumMissing, launchBrowser, logInPage, screenshot, type Browser } from './browser.ts';
import { callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { createForm } from './helpers.ts';

const EMAIL = 'owner@example.com';
const OTHER = 'colleague@example.com';
const PASSWORD = 'correct horse battery staple';

/** The redirect URI's listener: the code arrives here as it would at a desktop client. */
async function startCallback() {
  const codes: Array<URLSearchParams> = [];
  const server = http.createServer((req, res) => {
    // Only the redirect itself: the browser asks this origin for /favicon.ico too, at its own pace,
    // and that request would otherwise sometimes stand where the next redirect is looked for.
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/callback') codes.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>You can close this window.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { url, codes, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** An OAuthClientProvider as a desktop MCP client keeps one: in memory, the browser opened by the test. */
class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationFull;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  readonly redirectUrl: string;
  readonly name: string;
  constructor(redirectUrl: string, name: string) {
    this.redirectUrl = redirectUrl;
    this.name = name;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() { return this.info; }
  saveClientInformation(info: OAuthClientInformationFull) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier: string) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}

const skip = chromiumMissing();

describe('MCP over OAuth 2.1: discovery, registration, PKCE, consent in Chromium, refresh, revocation', { skip }, () => {
  let t: McpApp;
  let browser: Browser;
  let page: Page;
  let callback: Awaited<ReturnType<typeof startCallback>>;
  let origin: string;
  let formId: string;

  before(async () => {
    t = await startMcpApp();
    origin = new URL(t.url).origin;
    callback = await startCallback();
    const setup = await t.services.setup.newToken();
    await t.services.dashboard.setUp(setup!.token, EMAIL, PASSWORD);
    formId = (await createForm(t, (await t.services.accounts.createKey({ email: EMAIL, name: 'setup' })).key)).id;
    browser = await launchBrowser();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await callback?.close();
    await t?.close();
  });

  /** Connects with the SDK: on the first try it registers and asks for authorization; the browser answers. */
  async function signIn(provider: TestProvider, answer: (page: Page) => Promise<void>) {
    const first = new StreamableHTTPClientTransport(new URL(t.url), { authProvider: provider });
    await assert.rejects(new Client({ name: provider.name, version: '1' }).connect(first), /Unauthorized/);
    assert.ok(provider.authorizationUrl, 'the SDK built an authorization URL');
    const before = callback.codes.length;
    await page.goto(provider.authorizationUrl.href);
    await answer(page);
    await page.waitForURL(`${callback.url}?**`);
    const params = callback.codes[before]!;
    assert.equal(params.get('iss'), origin, 'RFC 9207: the issuer comes back with the code');
    await first.finishAuth(params.get('code')!);
    const client = new Client({ name: provider.name, version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(t.url), { authProvider: provider }));
    return client;
  }

  const post = (token: string, body: object, url = t.url) =>
    fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    });
  const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

  let full: TestProvider;

  it('does the whole flow with the SDK client: discovery, registration, PKCE, log-in and consent, token, tools', async () => {
    full = new TestProvider(callback.url, 'Assistant connector');
    const client = await signIn(full, async (page) => {
      await page.waitForURL(/\/login\?next=/);
      await screenshot(page, 'oauth-01-login');
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(/\/oauth\/consent\//);
      await page.getByRole('heading', { name: /Allow Assistant connector to use your Intake/ }).waitFor();
      await page.getByText(new URL(callback.url).host).first().waitFor();
      await screenshot(page, 'oauth-02-consent');
      await page.getByRole('button', { name: 'Allow' }).click();
    });
    assert.match(full.info!.client_id, /\S{20,}/, 'registered itself (RFC 7591)');
    assert.ok(full.saved?.access_token && full.saved.refresh_token);
    assert.ok((full.saved.expires_in ?? 0) <= 600, 'short-lived access tokens');
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'delete_form'), 'full scope: write tools too');
    const forms = await callOk(client, 'list_forms');
    assert.deepEqual(forms.forms.map((f: { id: string }) => f.id), [formId]);
    await callOk(client, 'update_form', { form_id: formId, name: 'Renamed over OAuth' });
    // The same audit log as API keys, naming the app.
    const { entries } = await callOk(client, 'list_audit');
    assert.equal(entries[0].operation, 'update_form');
    assert.match(entries[0].key_id, /^oauth:/);
    assert.equal(entries[0].key_name, 'OAuth app: Assistant connector');
    await client.close();
  });

  it('refreshes: new access and refresh tokens; replaying the old refresh token is refused and ends the grant', async () => {
    const metadata = await discoverAuthorizationServerMetadata(origin);
    assert.equal(metadata?.issuer, origin);
    const old = full.saved!;
    const refresh = (refreshToken: string) => refreshAuthorization(origin, { metadata, clientInformation: full.info!, refreshToken, resource: new URL(t.url) });
    const renewed = await refresh(old.refresh_token!);
    assert.notEqual(renewed.access_token, old.access_token);
    assert.ok(renewed.refresh_token && renewed.refresh_token !== old.refresh_token, 'rotated');
    assert.equal((await post(renewed.access_token, LIST)).status, 200);
    // A replayed refresh token means it leaked: refused, and every token of the grant goes with it.
    await assert.rejects(refresh(old.refresh_token!), /InvalidGrantError|invalid_grant/);
    assert.equal((await post(renewed.access_token, LIST)).status, 401);
    await assert.rejects(refresh(renewed.refresh_token!), /InvalidGrantError|invalid_grant/);

    // Connecting again asks the owner again (logged in by now: the consent page straight away).
    full = new TestProvider(callback.url, 'Assistant connector');
    const client = await signIn(full, async (page) => {
      await page.waitForURL(/\/oauth\/consent\//);
      await page.getByRole('button', { name: 'Allow' }).click();
    });
    await callOk(client, 'get_account');
    await client.close();
  });

  it('refuses the token at another resource: another origin of this server is another /mcp', async () => {
    const elsewhere = t.url.replace('127.0.0.1', 'localhost');
    const response = await post(full.saved!.access_token, LIST, elsewhere);
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /invalid_token/);
    // And no token is minted for a resource that is not this server's /mcp (RFC 8707 invalid_target).
    const verifier = randomBytes(32).toString('base64url');
    const url = authorizeUrl(full.info!.client_id, verifier, { resource: 'https://api.example.com/mcp' });
    const before = callback.codes.length;
    await page.goto(url);
    await page.waitForURL(`${callback.url}?**`);
    assert.equal(callback.codes[before]!.get('error'), 'invalid_target');
  });

  function authorizeUrl(clientId: string, verifier: string, extra: Record<string, string> = {}) {
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const params = new URLSearchParams({
      client_id: clientId, redirect_uri: callback.url, response_type: 'code', scope: 'full', resource: t.url,
      code_challenge: challenge, code_challenge_method: 'S256', state: randomBytes(8).toString('hex'), ...extra,
    });
    return `${origin}/oauth/authorize?${params}`;
  }

  /** A code for the already-allowed client: the browser's sign-in session skips the pages. */
  async function freshCode(verifier: string, extra: Record<string, string> = {}) {
    const before = callback.codes.length;
    await page.goto(authorizeUrl(full.info!.client_id, verifier, extra));
    await page.waitForURL(`${callback.url}?**`);
    return callback.codes[before]!;
  }

  const exchange = (code: string, verifier: string | null) =>
    fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code', code, redirect_uri: callback.url, client_id: full.info!.client_id, resource: t.url,
        ...(verifier !== null && { code_verifier: verifier }),
      }),
    });

  it('refuses a code without its code_verifier or with a wrong one, and an authorization request without PKCE', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const missing = await exchange((await freshCode(verifier)).get('code')!, null);
    assert.equal(missing.status, 400);
    assert.equal(((await missing.json()) as { error: string }).error, 'invalid_grant');
    const wrong = await exchange((await freshCode(verifier)).get('code')!, randomBytes(32).toString('base64url'));
    assert.equal(wrong.status, 400);
    assert.equal(((await wrong.json()) as { error: string }).error, 'invalid_grant');
    const right = await exchange((await freshCode(verifier)).get('code')!, verifier);
    assert.equal(right.status, 200, `the same flow with the right verifier works: ${await right.clone().text()}`);
    const noPkce = await freshCode(verifier, { code_challenge: '', code_challenge_method: '' });
    assert.equal(noPkce.get('error'), 'invalid_request');
    assert.match(noPkce.get('error_description') ?? '', /PKCE/);
    // A redirect URI other than the registered one, even on the same host, is refused outright.
    await page.goto(authorizeUrl(full.info!.client_id, verifier, { redirect_uri: `${callback.url}/other` }));
    await page.getByText(/redirect_uri/).first().waitFor();
  });

  it('gives a read-scoped grant only the read tools', async () => {
    const reader = new TestProvider(callback.url, 'Read-only reporter');
    const client = await signIn(reader, async (page) => {
      await page.waitForURL(/\/oauth\/consent\//);
      await page.getByLabel('Access').selectOption('read');
      await page.getByRole('button', { name: 'Allow' }).click();
    });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes('list_forms') && names.includes('get_submission_stats'));
    assert.ok(!names.includes('delete_form') && !names.includes('update_form') && !names.includes('create_destination'));
    await client.close();
  });

  it('lists connected apps with their last use, and revoking one cuts it off at once with a challenge that restarts discovery', async () => {
    await page.goto(`${origin}/integrations`);
    const row = page.getByRole('row', { name: /Assistant connector/ });
    await row.waitFor();
    assert.doesNotMatch(await row.innerText(), /Never/, 'its last use is shown');
    await screenshot(page, 'oauth-03-connected-apps');
    assert.equal((await post(full.saved!.access_token, LIST)).status, 200);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('App revoked.').waitFor();
    assert.equal(await page.getByRole('row', { name: /Assistant connector/ }).count(), 0);

    const refused = await post(full.saved!.access_token, LIST);
    assert.equal(refused.status, 401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    assert.match(challenge, /^Bearer error="invalid_token", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/);
    const metadata = (await (await fetch(challenge.match(/resource_metadata="([^"]+)"/)![1]!)).json()) as { authorization_servers: string[] };
    assert.deepEqual(metadata.authorization_servers, [origin]);
    const metadataDoc = await discoverAuthorizationServerMetadata(origin);
    await assert.rejects(refreshAuthorization(origin, { metadata: metadataDoc, clientInformation: full.info!, refreshToken: full.saved!.refresh_token!, resource: new URL(t.url) }));
    // API keys keep working beside OAuth.
    const key = (await t.services.accounts.createKey({ email: EMAIL, name: 'still works' })).key;
    assert.equal((await post(key, LIST)).status, 200);
  });

  it('in a shared browser, after the owner logs out and a colleague logs in, an app the owner allowed gets the consent page again and a code acting as the colleague', async () => {
    const web = new TestProvider(callback.url, 'Web client');
    const owners = await signIn(web, async (page) => {
      await page.waitForURL(/\/oauth\/consent\//);
      await page.getByRole('button', { name: 'Allow' }).click();
    });
    assert.equal((await callOk(owners, 'get_account')).email, EMAIL);
    await owners.close();

    await page.goto(`${origin}/overview`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${origin}/login`);
    const link = await t.services.dashboard.passwordLink(OTHER, true);
    await t.services.dashboard.usePasswordLink(link.token, PASSWORD);
    await logInPage(page, origin, OTHER, PASSWORD);

    const verifier = randomBytes(32).toString('base64url');
    await page.goto(authorizeUrl(web.info!.client_id, verifier));
    assert.match(page.url(), /\/oauth\/consent\//, 'the consent page, not a code acting as the owner');
    await page.getByText(`It will act for ${OTHER}`).waitFor();
    await screenshot(page, 'oauth-04-shared-browser-consent');
    const before = callback.codes.length;
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${callback.url}?**`);
    const response = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code', code: callback.codes[before]!.get('code')!, redirect_uri: callback.url,
        client_id: web.info!.client_id, resource: t.url, code_verifier: verifier,
      }),
    });
    assert.equal(response.status, 200);
    const colleagues = await t.connect(((await response.json()) as { access_token: string }).access_token);
    assert.equal((await callOk(colleagues, 'get_account')).email, OTHER);
  });
});
