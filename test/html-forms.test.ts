// Plain HTML forms (issue 33) through real HTTP: the browser's door beside the JSON endpoint, its
// answers (303s and pages, or JSON for AJAX), its hidden fields, allowed origins and hostile bodies.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, pathOf } from './helpers.ts';
import { settled, startPipelineApp, type PipelineApp } from './pipeline-helpers.ts';

const FORM = 'application/x-www-form-urlencoded';

describe('plain HTML form endpoint', () => {
  let t: PipelineApp;
  let key: string;
  let base: string;

  before(async () => {
    t = await startPipelineApp();
    key = await t.createKey();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  after(() => t.close());

  const at = (endpoint: string) => `${base}${pathOf(endpoint)}`;
  const post = (url: string, body: string | FormData | Buffer, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', body, redirect: 'manual', headers: typeof body === 'string' ? { 'content-type': FORM, ...headers } : headers });
  async function stored(formId: string) {
    const response = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions?filter=all`, headers: bearer(key) });
    return response.json().data as Array<{ id: string; data: Record<string, unknown>; metadata: Record<string, unknown> }>;
  }

  it('names html_endpoint on the form and in discovery, beside the versioned JSON endpoint', async () => {
    const form = await createForm(t, key);
    assert.match(String(form.html_endpoint), /^http:\/\/[^/]+\/f\/[\w-]+\/contact-/);
    assert.equal(pathOf(String(form.html_endpoint)).split('/')[2], pathOf(form.endpoint).split('/')[2], 'the same segment');
    const discovery = await fetch(at(form.endpoint), { headers: { accept: 'application/json' } });
    assert.equal(((await discovery.json()) as { html_endpoint: string }).html_endpoint.replace(/^http:\/\/[^/]+/, ''), pathOf(String(form.html_endpoint)));
    const changed = await t.request({
      method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key),
      payload: { fields_schema: { fields: [{ name: 'email', type: 'email', required: true }] } },
    });
    assert.notEqual(changed.json().html_endpoint, form.html_endpoint, 'a schema change mints a new one');
    const old = await post(at(String(form.html_endpoint)), 'name=Ada&email=ada%40example.com');
    assert.equal(old.status, 303, 'the old one keeps its schema');
  });

  it('takes a urlencoded post: 303 to the thank-you page, stored with typed values', async () => {
    const form = await createForm(t, key);
    const response = await post(at(String(form.html_endpoint)), 'name=Ada+Lovelace&email=ada%40example.com&message=Hello%20%C3%A9&age=36',
      { origin: 'https://site.example', referer: 'https://site.example/contact' });
    assert.equal(response.status, 303);
    const location = response.headers.get('location')!;
    assert.match(location, /\/thanks\?back=https%3A%2F%2Fsite\.example%2Fcontact$/);
    const [submission] = await stored(form.id);
    assert.deepEqual(submission!.data, { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello é', age: 36 });
    const thanks = await fetch(new URL(location, base), { headers: { referer: 'https://site.example/' } });
    assert.equal(thanks.status, 200);
    assert.equal(thanks.headers.get('content-type'), 'text/html; charset=utf-8');
    const page = await thanks.text();
    assert.match(page, /<html lang="en">/);
    assert.match(page, /Contact/);
    assert.match(page, /href="https:\/\/site\.example\/contact"/, 'a link back to where the visitor came from');
  });

  it('takes a multipart post, and goes to redirect_url when the owner set one', async () => {
    const form = await createForm(t, key, { redirect_url: 'https://site.example/thank-you' });
    const body = new FormData();
    for (const [name, value] of Object.entries({ name: 'Grace', email: 'grace@example.com', age: '85', _gotcha: '' })) body.append(name, value);
    body.append('attachment', new Blob([]), '');
    const response = await post(at(String(form.html_endpoint)), body);
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), 'https://site.example/thank-you');
    const [submission] = await stored(form.id);
    assert.deepEqual(submission!.data, { name: 'Grace', email: 'grace@example.com', age: 85 });
  });

  it('answers an invalid post with a 400 page naming each field, and stores nothing', async () => {
    const form = await createForm(t, key);
    const response = await post(at(String(form.html_endpoint)), 'name=&email=not-an-address&age=many&_language=de', { referer: 'https://site.example/contact' });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    const page = await response.text();
    assert.match(page, /<html lang="de">/);
    assert.match(page, /<strong>email<\/strong>: invalid email/);
    assert.match(page, /<strong>age<\/strong>: invalid number/);
    assert.match(page, /<strong>name<\/strong>: is required/);
    assert.match(page, /<a href="https:\/\/site\.example\/contact">Zurück zum Formular<\/a>/);
    assert.equal((await stored(form.id)).length, 0);
  });

  it('answers AJAX (Accept: application/json) as the JSON endpoint does', async () => {
    const form = await createForm(t, key);
    const body = new FormData();
    body.append('name', 'Ada');
    body.append('email', 'ada@example.com');
    const created = await post(at(String(form.html_endpoint)), body, { accept: 'application/json' });
    assert.equal(created.status, 201);
    const json = (await created.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(json).sort(), ['created_at', 'data', 'id']);
    assert.deepEqual(json.data, { name: 'Ada', email: 'ada@example.com' });
    const invalid = await post(at(String(form.html_endpoint)), 'email=nope', { 'x-requested-with': 'XMLHttpRequest' });
    assert.equal(invalid.status, 400);
    const error = ((await invalid.json()) as { error: { code: string; details: object } }).error;
    assert.equal(error.code, 'validation_error');
    assert.deepEqual(Object.keys(error.details).sort(), ['email', 'name']);
  });

  it('follows _next only to the posting site or an allowed origin: never an open redirect', async () => {
    const form = await createForm(t, key, { allowed_origins: ['https://site.example', 'https://other.example:8443'] });
    const headers = { origin: 'https://site.example', referer: 'https://site.example/contact' };
    const to = async (next: string) => (await post(at(String(form.html_endpoint)), `name=A&email=a%40example.com&_next=${encodeURIComponent(next)}`, headers)).headers.get('location');
    assert.equal(await to('/done?x=1'), 'https://site.example/done?x=1');
    assert.equal(await to('https://other.example:8443/ok'), 'https://other.example:8443/ok');
    for (const foreign of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      assert.match(String(await to(foreign)), /\/thanks/, foreign);
    }
    const open = await createForm(t, key);
    const response = await post(at(String(open.html_endpoint)), `name=A&email=a%40example.com&_next=${encodeURIComponent('https://evil.example/')}`);
    assert.match(String(response.headers.get('location')), /^\/f\/.+\/thanks$/, 'no origins listed: any absolute _next is ignored');
  });

  it('keeps _-fields out of data: _gotcha filled is answered as success and stored as spam; _subject and _replyto reach the metadata', async () => {
    const form = await createForm(t, key);
    const response = await post(at(String(form.html_endpoint)),
      'name=Bot&email=bot%40example.com&_gotcha=http%3A%2F%2Fspam&_subject=Hello%0D%0ABcc%3A+x&_replyto=reply%40example.com&_cc=x%40example.com&_webhook=http%3A%2F%2Fx');
    assert.equal(response.status, 303);
    assert.match(String(response.headers.get('location')), /\/thanks/);
    const [submission] = await stored(form.id);
    assert.deepEqual(submission!.data, { name: 'Bot', email: 'bot@example.com' });
    assert.equal(submission!.metadata.subject, 'Hello Bcc: x');
    assert.equal(submission!.metadata.reply_to, 'reply@example.com');
    const processed = await settled(t, key, form.id, submission!.id);
    assert.equal(processed.spam_flag, true);
    assert.match(String(processed.spam_reason), /_gotcha/);
  });

  it('refuses other sites when the form lists origins, on both endpoints; no header at all is a spam signal', async () => {
    const form = await createForm(t, key, { allowed_origins: ['HTTPS://Site.Example:443/'] });
    assert.deepEqual((await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(key) })).json().allowed_origins, ['https://site.example']);
    const json = (origin: Record<string, string>) =>
      fetch(at(form.endpoint), { method: 'POST', headers: { 'content-type': 'application/json', ...origin }, body: JSON.stringify({ name: 'A', email: 'a@example.com' }) });
    const foreign = await json({ origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.equal(((await foreign.json()) as { error: { code: string } }).error.code, 'origin_not_allowed');
    assert.equal((await json({ referer: 'https://evil.example/page' })).status, 403, 'Referer when there is no Origin');
    assert.equal((await json({ origin: 'https://site.example' })).status, 201);
    const page = await post(at(String(form.html_endpoint)), 'name=A&email=a%40example.com', { origin: 'https://evil.example' });
    assert.equal(page.status, 403);
    assert.match(await page.text(), /<h1>This website may not send this form<\/h1>/);
    assert.equal((await post(at(String(form.html_endpoint)), 'name=A&email=a%40example.com', { origin: 'https://site.example' })).status, 303);
    assert.equal((await json({})).status, 201);
    const all = await stored(form.id);
    assert.equal(all.length, 3);
    assert.equal(all.filter((s) => s.metadata.origin_unknown === true).length, 1);
  });

  it('leaves the JSON endpoint refusing form encodings (415), and refuses JSON at the HTML endpoint (415 page)', async () => {
    const form = await createForm(t, key);
    const response = await post(at(form.endpoint), 'name=A&email=a%40example.com');
    assert.equal(response.status, 415);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'unsupported_media_type');
    const json = await post(at(String(form.html_endpoint)), Buffer.from('{"name":"A"}'), { 'content-type': 'application/json' });
    assert.equal(json.status, 415);
    assert.match(json.headers.get('content-type')!, /^text\/html/);
  });
});

describe('hostile bodies at the HTML form endpoint', () => {
  let t: PipelineApp;
  let url: string;
  let formId: string;
  let key: string;

  before(async () => {
    t = await startPipelineApp();
    key = await t.createKey();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const form = await createForm(t, key);
    formId = form.id;
    url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}${pathOf(String(form.html_endpoint))}`;
  });
  after(() => t.close());

  const multipart = (boundary: string, body: string | Buffer) =>
    fetch(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, accept: 'application/json' }, body });
  const part = (boundary: string, name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const urlencoded = (body: string | Buffer) => fetch(url, { method: 'POST', headers: { 'content-type': FORM, accept: 'application/json' }, body });

  async function refused(response: Response, status: number, pattern: RegExp) {
    assert.equal(response.status, status, await response.clone().text());
    assert.match(((await response.json()) as { error: { message: string } }).error.message, pattern);
  }

  it('answers each with a clear 4xx and stores nothing', async () => {
    await refused(await urlencoded(Array.from({ length: 1_001 }, (_, i) => `f${i}=x`).join('&')), 413, /more than 1000 fields/);
    const b = 'xyz';
    await refused(await multipart(b, `${Array.from({ length: 1_001 }, (_, i) => part(b, `f${i}`, 'x')).join('')}--${b}--\r\n`), 413, /more than 1000 fields/);
    await refused(await urlencoded(`${'n'.repeat(5_000)}=x`), 400, /field name is longer/);
    await refused(await multipart(b, `${part(b, 'n'.repeat(5_000), 'x')}--${b}--\r\n`), 400, /field name is longer/);
    await refused(await multipart(b, `${part(b, 'name', 'Ada')}--${b}\r\nContent-Disposition: form-data; name="email"\r\n\r\nada@exa`), 400, /could not be read/);
    const long = 'b'.repeat(71);
    await refused(await multipart(long, `${part(long, 'name', 'Ada')}--${long}--\r\n`), 400, /boundary of 1 to 70/);
    await refused(await urlencoded('name=%FF%FE&email=a%40example.com'), 400, /not valid UTF-8/);
    await refused(await urlencoded(Buffer.concat([Buffer.from('name='), Buffer.from([0xff, 0xfe]), Buffer.from('&email=a%40example.com')])), 400, /not valid UTF-8/);
    await refused(await multipart(b, Buffer.concat([Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="name"\r\n\r\n`), Buffer.from([0xc3, 0x28]), Buffer.from(`\r\n--${b}--\r\n`)])), 400, /not valid UTF-8/);
    for (const name of ['__proto__', 'constructor']) {
      await refused(await urlencoded(`${name}=x&name=A&email=a%40example.com`), 400, /not allowed/);
      await refused(await multipart(b, `${part(b, name, 'x')}--${b}--\r\n`), 400, /not allowed/);
    }
    await refused(await urlencoded('name=A%00B&email=a%40example.com'), 400, /cannot be stored/);
    const file = `--${b}\r\nContent-Disposition: form-data; name="cv"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 hello\r\n--${b}--\r\n`;
    await refused(await multipart(b, file), 413, /takes no files/);
    const response = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions?filter=all`, headers: bearer(key) });
    assert.equal(response.json().meta.total_count, 0);
  });
});
