// The dashboard's assets under content-hashed names with a year's immutable cache, compressed
// (brotli or gzip, as the client accepts), and its pages compressed too.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from './dashboard-helpers.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers.ts';

describe(`dashboard assets (${ENGINE})`, () => {
  let t: TestApp;
  let c: DashboardClient;
  before(async () => {
    t = await startTestApp();
    c = new DashboardClient(t);
    await c.setUp();
  });
  after(() => t?.close());

  it('links hashed names, served immutable for a year in the encoding the client takes', async () => {
    const page = await c.get('/forms');
    const css = /href="(\/assets\/dashboard\.[0-9a-f]{12}\.css)"/.exec(page.body)?.[1];
    const js = /src="(\/assets\/dashboard\.[0-9a-f]{12}\.js)"/.exec(page.body)?.[1];
    assert.ok(css && js, 'the layout links hashed names');
    const original = fs.readFileSync(new URL('../src/dashboard/assets/dashboard.css', import.meta.url));
    const br = await c.get(css, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers.vary, 'accept-encoding');
    assert.ok(brotliDecompressSync(br.rawPayload).equals(original));
    assert.ok(br.rawPayload.length < original.length / 3, `compressed ${original.length} → ${br.rawPayload.length} bytes`);
    const gzip = await c.get(css, { 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(gzip.rawPayload).equals(original));
    const plain = await c.get(css, { 'accept-encoding': 'identity' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.rawPayload.equals(original));
    assert.equal((await c.get(js)).headers['content-type'], 'text/javascript; charset=utf-8');
  });

  it('still answers the plain names briefly cached, and nothing else', async () => {
    assert.equal((await c.get('/assets/dashboard.css')).headers['cache-control'], 'public, max-age=300');
    assert.equal((await c.get('/assets/dashboard.000000000000.css')).statusCode, 404);
    assert.equal((await c.get('/assets/..%2Fplugin.ts')).statusCode, 404);
  });

  it('never inflates a compressed request body', async () => {
    await c.get('/integrations');
    const body = (await import('node:zlib')).gzipSync(Buffer.from(`_csrf=${c.csrf}&name=${'a'.repeat(50)}`));
    const response = await t.request({
      method: 'POST', url: '/integrations/keys', payload: body,
      headers: { cookie: c.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
    });
    assert.notEqual(response.statusCode, 303, 'nothing was created from an inflated body');
    assert.ok(response.statusCode < 500);
  });

  it('compresses pages, which stay uncacheable', async () => {
    await c.get('/forms/new');
    const editor = await c.get('/forms/new', { 'accept-encoding': 'br' });
    assert.equal(editor.headers['content-encoding'], 'br');
    assert.equal(editor.headers['cache-control'], 'no-store');
    const html = brotliDecompressSync(editor.rawPayload).toString('utf8');
    assert.match(html, /data-builder-module="\/assets\/builder\.[0-9a-f]{12}\.js"/);
  });
});
