// The CAPTCHA settings through every surface that changes a form: the dashboard's editor (the secret
// write-only: an empty box keeps it) and the MCP form tools; the secret never shown by either.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DashboardClient, formIdIn } from './dashboard-helpers.ts';
import { callError, callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';

const SCHEMA = JSON.stringify({ fields: [{ name: 'email', type: 'email', required: true }] });

describe('CAPTCHA settings', () => {
  let t: McpApp;
  let owner: DashboardClient;
  let client: Client;
  before(async () => {
    t = await startMcpApp();
    owner = new DashboardClient(t);
    await owner.setUp('captcha@example.com');
    client = await t.connect(await t.createKey('captcha@example.com'));
  });
  after(() => t.close());

  it('the editor sets the provider and keys, requires both keys for a hosted provider, and keeps the secret when left empty', async () => {
    const page = await owner.get('/forms/new');
    assert.match(page.body, /<select id="f-captcha_provider" name="captcha_provider">/);
    const missing = await owner.post('/forms/new', { name: 'Signup', slug: 'signup', visibility: 'public', fields_schema: SCHEMA, captcha_provider: 'hcaptcha' });
    assert.equal(missing.statusCode, 422);
    assert.match(missing.body, /is required when captcha_provider is hcaptcha/);

    const created = await owner.post('/forms/new', {
      name: 'Signup', slug: 'signup', visibility: 'public', fields_schema: SCHEMA, captcha_provider: 'hcaptcha', captcha_site_key: 'site-h', captcha_secret: 'never-shown',
    });
    const formId = formIdIn(String(created.headers.location));
    const edit = await owner.get(`/forms/${formId}/edit`);
    assert.match(edit.body, /<option value="hcaptcha" selected>/);
    assert.match(edit.body, /value="site-h"/);
    assert.doesNotMatch(edit.body, /never-shown/);

    const saved = await owner.post(`/forms/${formId}/edit`, { name: 'Signup', slug: 'signup', visibility: 'public', fields_schema: SCHEMA, captcha_provider: 'hcaptcha', captcha_site_key: 'site-h2', captcha_secret: '' });
    assert.equal(saved.statusCode, 303, saved.body.slice(0, 500));
    const form = await t.services.forms.get((await t.services.accounts.find('captcha@example.com'))!.id, formId);
    assert.equal(form.settings.captcha_site_key, 'site-h2');
    assert.equal(form.settings.captcha_secret, 'never-shown', 'an empty box keeps the stored secret');

    const altcha = await owner.post(`/forms/${formId}/edit`, { name: 'Signup', slug: 'signup', visibility: 'public', fields_schema: SCHEMA, captcha_provider: 'altcha' });
    assert.equal(altcha.statusCode, 303);
  });

  it('the MCP tools set and show the provider and site key, never the secret', async () => {
    const refused = await callError(client, 'create_form', { name: 'T', slug: 'turnstile-form', visibility: 'public', fields_schema: { fields: [] }, captcha_provider: 'turnstile' });
    assert.match(JSON.stringify(refused), /captcha_site_key/);
    const made = await callOk(client, 'create_form', {
      name: 'T', slug: 'turnstile-form', visibility: 'public', fields_schema: { fields: [] }, captcha_provider: 'turnstile', captcha_site_key: 'site-t', captcha_secret: 'mcp-secret',
    });
    assert.equal(made.captcha_provider, 'turnstile');
    assert.equal(made.captcha_site_key, 'site-t');
    assert.ok(!JSON.stringify(made).includes('mcp-secret'));
    const changed = await callOk(client, 'update_form', { form_id: made.id, captcha_provider: 'altcha' });
    assert.equal(changed.captcha_provider, 'altcha');
    const shown = await callOk(client, 'get_form', { form_id: made.id });
    assert.equal(shown.captcha_provider, 'altcha');
    assert.ok(!JSON.stringify(shown).includes('mcp-secret'));
    // The owner's own agent submits with the owner's key, as it comes from no website: no CAPTCHA to solve.
    const submitted = await callOk(client, 'submit_to_form', { form_id: made.id, data: {} });
    assert.ok(submitted.submission.id);
  });
});
