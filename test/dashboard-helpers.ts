// A cookie-keeping client for the dashboard over inject(): it sends the cookies it was given and
// the CSRF token of the last page it read, as a browser with the page open would.
import type { LightMyRequestResponse } from 'fastify';
import { createForm, startTestApp, type TestApp } from './helpers.ts';

export class DashboardClient {
  readonly t: TestApp;
  readonly cookies = new Map<string, string>();
  csrf = '';
  last: LightMyRequestResponse | null = null;

  constructor(t: TestApp) {
    this.t = t;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  remember(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const cookie of response.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const gone = cookie.value === '' || (cookie.expires !== undefined && cookie.expires.getTime() < Date.now());
      if (gone) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    const token = /name="_csrf" value="([^"]*)"/.exec(response.body)?.[1];
    if (token) this.csrf = token;
    this.last = response;
    return response;
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.remember(await this.t.request({ method: 'GET', url, headers: { cookie: this.cookieHeader(), ...headers } }));
  }

  /** POSTs a urlencoded form; `_csrf` is added unless given (pass `_csrf: null` to leave it out). */
  async post(url: string, fields: Record<string, string | null> = {}, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams();
    if (!('_csrf' in fields)) body.set('_csrf', this.csrf);
    for (const [k, v] of Object.entries(fields)) if (v !== null) body.append(k, v);
    return this.remember(
      await this.t.request({
        method: 'POST',
        url,
        headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: body.toString(),
      }),
    );
  }

  /** The page a POST redirected to (post, redirect, get): the POST must have answered 303. */
  async follow(response: LightMyRequestResponse): Promise<LightMyRequestResponse> {
    if (response.statusCode !== 303) throw new Error(`expected 303 after a POST, got ${response.statusCode}: ${response.body.slice(0, 300)}`);
    return this.get(String(response.headers.location));
  }

  /** A set-up link's token, as `intake serve` prints it on a new server. */
  async setupToken(): Promise<string> {
    const issued = await this.t.services.setup.newToken();
    if (!issued) throw new Error('set-up is closed');
    return issued.token;
  }

  /** First-run set-up of an owner through the pages, from a printed set-up link; leaves the client logged in. */
  async setUp(email = 'owner@example.com', password = 'correct horse battery'): Promise<void> {
    const token = await this.setupToken();
    await this.get(`/setup?token=${token}`);
    const response = await this.post('/setup', { token, email, password });
    if (response.statusCode !== 303) throw new Error(`set-up failed: ${response.statusCode} ${response.body.slice(0, 500)}`);
  }

  async logIn(email: string, password: string): Promise<LightMyRequestResponse> {
    await this.get('/login');
    return this.post('/login', { email, password });
  }
}

/** The form id in a dashboard URL such as /forms/<id>/inbox. */
export function formIdIn(location: string | undefined | string[]): string {
  const match = /\/forms\/([0-9a-f-]{36})/.exec(String(location));
  if (!match?.[1]) throw new Error(`no form id in ${String(location)}`);
  return match[1];
}

/** Opens a link the product wrote into a message (an email, a chat notification) as this client, following redirects. */
export async function openLink(c: DashboardClient, link: string): Promise<LightMyRequestResponse> {
  const url = new URL(link);
  let response = await c.get(`${url.pathname}${url.search}`);
  for (let hops = 0; hops < 3 && response.statusCode >= 300 && response.statusCode < 400; hops++) {
    response = await c.get(String(response.headers.location));
  }
  return response;
}

/** Every dashboard link in a text, by the base URL the server was given. */
export function linksIn(text: string, baseUrl: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s"<>)]+/g)].map((m) => m[0]).filter((link) => link.startsWith(baseUrl));
}

/** An app with one owner signed in to the dashboard, an API key of theirs and a form with these fields. */
export async function ownerWithForm(fields: Array<{ name: string; type: string }>) {
  const t = await startTestApp();
  const owner = new DashboardClient(t);
  await owner.setUp('owner@example.com');
  const key = await t.createKey('owner@example.com');
  const form = await createForm(t, key, { fields_schema: { fields } });
  return { t, owner, key, form };
}
