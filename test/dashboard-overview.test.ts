// The overview pages (the account's at /overview, a form's on its overview tab) rendered on the
// server, empty and with data, and the audit-log page: filters, pages, and the dashboard's own writes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, settled, startPipelineApp, submit, type PipelineApp } from './pipeline-helpers.ts';
import { DashboardClient, formIdIn } from './dashboard-helpers.ts';
import { ENGINE } from './helpers.ts';

const EMAIL = 'charts@example.com';
const SCHEMA = { fields: [{ name: 'email', type: 'email', required: true }, { name: 'message', type: 'string', required: true }] };
const today = () => new Date().toISOString().slice(0, 10);

/** The data table of the chart whose caption starts with `title`: day → values. */
function tableOf(body: string, title: string): Map<string, number[]> {
  const start = body.indexOf(`<caption class="visually-hidden">${title}`);
  assert.ok(start >= 0, `no data table for ${title}`);
  const table = body.slice(start, body.indexOf('</table>', start));
  const rows = new Map<string, number[]>();
  for (const [, day, cells] of table.matchAll(/<tr><th scope="row">([^<]+)<\/th>(.*?)<\/tr>/g)) {
    rows.set(day!, [...cells!.matchAll(/<td class="num">([\d,]+)<\/td>/g)].map((m) => Number(m[1]!.replace(/,/g, ''))));
  }
  return rows;
}

describe(`dashboard overview and audit pages (${ENGINE})`, () => {
  let t: PipelineApp;
  let owner: DashboardClient;
  let formId: string;

  before(async () => {
    t = await startPipelineApp();
    owner = new DashboardClient(t);
    await owner.setUp(EMAIL);
  });
  after(async () => t?.close());

  it('leads a new owner to create a form, then to paste its snippet', async () => {
    assert.equal((await owner.get('/')).headers.location, '/overview');
    const empty = await owner.get('/overview');
    assert.equal(empty.statusCode, 200);
    assert.match(empty.body, /<h3>No forms yet<\/h3>/);
    assert.match(empty.body, /href="\/forms\/new"/);
    assert.match(empty.body, /<a href="\/overview" aria-current="page">Overview<\/a>/);
    assert.doesNotMatch(empty.body, /<svg/);

    await owner.get('/forms/new');
    const made = await owner.post('/forms/new', { name: 'Contact', slug: 'contact', visibility: 'public', fields_schema: JSON.stringify(SCHEMA), localisation_enabled: 'true' });
    assert.ok(made.statusCode < 400, made.body.slice(0, 300));
    formId = formIdIn(made.headers.location ?? (/href="\/forms\/([0-9a-f-]{36})\/inbox"/.exec(made.body)?.[0] ?? ''));
    const waiting = await owner.get('/overview');
    assert.match(waiting.body, /No submissions in the last 30 days/);
    assert.match(waiting.body, new RegExp(`href="/forms/${formId}#snippets-title"`));
    const formPage = await owner.get(`/forms/${formId}`);
    assert.match(formPage.body, /No submissions in the last 30 days/);
    assert.match(formPage.body, /id="snippets-title"/, 'the empty state links to the snippet on the same page');
  });

  it('charts submissions, spam, languages, replies and notifications, with numbers on hover and a data table', async () => {
    const endpoint = /<code id="endpoint">([^<]+)<\/code>/.exec((await owner.get(`/forms/${formId}`)).body)![1]!;
    const key = (await t.services.accounts.createKey({ email: EMAIL, name: 'charts' })).key;
    const messages = [
      'Hello, could you send me the price list for your garden chairs please?',
      'Guten Tag, ich hätte gerne eine Preisliste für die Gartenstühle, vielen Dank.',
      'Guten Abend, wann liefern Sie die bestellten Gartenstühle nach Berlin?',
    ];
    const ids = [];
    for (const [i, message] of messages.entries()) ids.push(await submit(t, endpoint, { email: `p${i}@example.com`, message }));
    for (const id of ids) await settled(t, key, formId, id);
    const marked = await t.request({ method: 'PATCH', url: `/api/forms/${formId}/submissions/${ids[0]}`, headers: bearer(key), payload: { spam_flag: true } });
    assert.equal(marked.statusCode, 200);

    for (const url of ['/overview?range=7', `/forms/${formId}?range=7`]) {
      const shown = await owner.get(url);
      assert.equal(shown.statusCode, 200);
      assert.match(shown.body, /<a href="[^"]*range=7" aria-current="page">7 days<\/a>/);
      assert.match(shown.body, /<svg viewBox="0 0 84 120" preserveAspectRatio="none" role="img" aria-label="Submissions per day: 3 in 7 days, 33.3 % spam"/);
      const day = new Date().toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
      assert.match(shown.body, new RegExp(`<title>${day}: 2 not spam, 1 spam</title>`), 'the numbers on hover');
      const submissions = tableOf(shown.body, 'Submissions per day');
      assert.equal(submissions.size, 7);
      assert.deepEqual(submissions.get(today()), [2, 1]);
      assert.match(shown.body, /<span class="hbar-label">German<\/span>/, 'languages by name');
      assert.match(shown.body, /<span class="hbar-label">English<\/span>/);
      assert.match(shown.body, /<dt>Spam<\/dt><dd>33.3 %/);
    }
    const month = await owner.get('/overview?range=nonsense');
    assert.equal(tableOf(month.body, 'Submissions per day').size, 30, 'an unknown range is the default 30 days');
    assert.equal(tableOf((await owner.get('/overview?range=90')).body, 'Notifications per day').size, 90);

    const stranger = new DashboardClient(t);
    const link = await t.services.dashboard.passwordLink('stranger@example.com', true);
    await stranger.get(`/set-password?token=${link.token}`);
    await stranger.post('/set-password', { token: link.token, password: 'stranger password 1' });
    assert.equal((await stranger.get(`/forms/${formId}?range=7`)).statusCode, 404, "another owner's form");
    const theirs = await stranger.get('/overview');
    assert.match(theirs.body, /No forms yet/, "another owner's overview counts none of these");
  });

  it("lists the audit log by surface, with the dashboard's own writes, page by page", async () => {
    const key = (await t.services.accounts.createKey({ email: EMAIL, name: 'laptop' })).key;
    const made = await createForm(t, key);
    await owner.get(`/forms/${formId}/edit`);
    await owner.post(`/forms/${formId}/edit`, { name: 'Contact', slug: 'contact', visibility: 'public', fields_schema: JSON.stringify(SCHEMA) });

    const all = await owner.get('/audit');
    assert.equal(all.statusCode, 200);
    assert.match(all.body, /<td>Dashboard<\/td>\s*<td><code class="wrap">POST \/forms\/:id\/edit<\/code><\/td>/);
    assert.match(all.body, new RegExp(`<td class="wrap">laptop <span class="muted small">\\(charts@example.com\\)</span></td>\\s*<td>API</td>\\s*<td><code class="wrap">POST /api/forms</code></td>\\s*<td><code class="wrap">${made.id}</code>`));
    const api = await owner.get('/audit?surface=api');
    assert.match(api.body, /<a href="\/audit\?surface=api" aria-current="page">API<\/a>/);
    assert.doesNotMatch(api.body, /<td>Dashboard<\/td>/);
    const mcp = await owner.get('/audit?surface=mcp');
    assert.match(mcp.body, /Nothing recorded through MCP yet/);

    const accountId = (await t.services.accounts.authenticate(key))!.account.id;
    for (let i = 0; i < 30; i++) await t.services.audit.recordKeyless({ accountId, surface: 'cli', actor: 'cli', operation: `job ${i}`, targetId: null });
    const first = await owner.get('/audit?surface=cli');
    assert.match(first.body, /Page 1 of 2 · 30 entries/);
    assert.match(first.body, /href="\/audit\?surface=cli&amp;page=2" rel="next"/);
    assert.match(first.body, /job 29/);
    const second = await owner.get('/audit?surface=cli&page=2');
    assert.match(second.body, /job 4</);
    assert.doesNotMatch(second.body, /job 29/);
    assert.match(second.body, /rel="prev"/);
  });
});
