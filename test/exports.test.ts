// Exports on the engine under test: columns of every schema version, CSV that no spreadsheet runs
// as a formula, non-Latin text, the filter and the date range, and bad parameters refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

const V1 = { fields: [{ name: 'name', type: 'string', required: true }, { name: 'email', type: 'email' }, { name: 'message', type: 'string' }] };
const V2 = { fields: [{ name: 'email', type: 'email' }, { name: 'name', type: 'string' }, { name: 'company', type: 'string' }, { name: 'tags', type: 'string' }] };
const FORMULAS = ['=1+1', '+SUM(A1)', '-2+3', '@HYPERLINK("http://x")', '\t=cmd', '\r=cmd'];

describe('submission exports', () => {
  let t: TestApp;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  const ids: string[] = [];

  const submit = async (endpoint: string, payload: Record<string, unknown>) => {
    const r = await t.request({ method: 'POST', url: pathOf(endpoint), payload });
    assert.equal(r.statusCode, 201, r.body);
    ids.push(r.json().id);
    return r.json().id as string;
  };
  const exportOf = (query: string, k = key) => t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/export${query}`, headers: bearer(k) });
  const csv = (body: string) => parse(body, { columns: true, bom: true }) as Array<Record<string, string>>;

  before(async () => {
    t = await startTestApp();
    key = await t.createKey();
    form = await createForm(t, key, { fields_schema: V1 });
    await submit(form.endpoint, { name: 'Ada', email: 'ada@example.com', message: 'first version' });
    for (const formula of FORMULAS) await submit(form.endpoint, { name: 'Formula', message: formula });
    await submit(form.endpoint, { name: 'Ирина Петрова', message: '日本語のメッセージ, "quoted"\nsecond line' });
    const changed = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { fields_schema: V2 } });
    assert.equal(changed.statusCode, 200, changed.body);
    await submit(changed.json().endpoint, { name: 'Grace', email: 'grace@example.com', company: 'Navy' });
    // The last one is spam, and the first two are old, as the pipeline and time would make them.
    await t.database.db.updateTable('submissions').set({ spam_flag: true, spam_reason: 'test' }).where('id', '=', ids.at(-1)!).execute();
    await t.database.db.updateTable('submissions').set({ created_at: '2020-01-01T00:00:00.000Z' }).where('id', 'in', ids.slice(0, 2)).execute();
  });
  after(() => t.close());

  it('exports CSV with the columns of every schema version, current order first, removed fields after', async () => {
    const response = await exportOf('?filter=all');
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] as string, /^text\/csv; charset=utf-8/);
    assert.equal(response.headers['content-disposition'], `attachment; filename="${form.slug}-submissions-${new Date().toISOString().slice(0, 10)}.csv"`);
    const header = response.body.split('\r\n')[0];
    assert.equal(header, 'id,created_at,email,name,company,tags,message,spam_flag,spam_reason,original_language,reply_status');
    const rows = csv(response.body);
    assert.deepEqual(rows.map((r) => r.id), ids, 'oldest first, all of them');
    assert.equal(rows[0]!.message, 'first version');
    assert.equal(rows.at(-1)!.company, 'Navy');
    assert.equal(rows.at(-1)!.spam_flag, 'true');
    assert.equal(rows[0]!.company, '');
  });

  it('neutralises every formula start and keeps non-Latin text, quotes and line breaks', async () => {
    const rows = csv((await exportOf('?filter=all')).body);
    const messages = rows.slice(1, 1 + FORMULAS.length).map((r) => r.message);
    // A CR both starts a formula and ends a line, after which another may start: '\r=cmd' takes two.
    assert.deepEqual(messages, FORMULAS.map((f) => `'${f}`.replace('\r=', "\r'=")));
    for (const m of messages) assert.doesNotMatch(m!, /^[=+\-@\t\r]/);
    const ira = rows.find((r) => r.name === 'Ирина Петрова');
    assert.equal(ira?.message, '日本語のメッセージ, "quoted"\nsecond line');
  });

  it('starts with a UTF-8 byte order mark when asked', async () => {
    const plain = await exportOf('?filter=all');
    const withBom = await exportOf('?filter=all&bom=true');
    assert.notEqual(plain.rawPayload[0], 0xef);
    assert.deepEqual([...withBom.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.equal(withBom.rawPayload.length, plain.rawPayload.length + 3);
  });

  it('exports NDJSON and JSON with the data as submitted', async () => {
    const nd = await exportOf('?format=ndjson&filter=all');
    assert.match(nd.headers['content-type'] as string, /^application\/x-ndjson/);
    assert.match(nd.headers['content-disposition'] as string, /\.ndjson"$/);
    const lines = nd.body.trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.id), ids);
    assert.equal(lines[1].data.message, '=1+1', 'JSON keeps the value as it was sent');
    assert.equal(lines.at(-1).data.company, 'Navy');
    const json = await exportOf('?format=json&filter=all');
    assert.deepEqual(json.json().map((l: { id: string }) => l.id), ids);
    const empty = await exportOf('?format=json&filter=spam&to=2000-01-01');
    assert.deepEqual(empty.json(), []);
  });

  it('applies the filter and the date range', async () => {
    assert.deepEqual(csv((await exportOf('')).body).map((r) => r.id), ids.slice(0, -1), 'inbox by default');
    assert.deepEqual(csv((await exportOf('?filter=spam')).body).map((r) => r.id), [ids.at(-1)]);
    assert.deepEqual(csv((await exportOf('?filter=all&to=2020-06-01')).body).map((r) => r.id), ids.slice(0, 2));
    assert.deepEqual(csv((await exportOf('?filter=all&from=2021-01-01T00:00:00%2B02:00')).body).map((r) => r.id), ids.slice(2));
    assert.deepEqual(csv((await exportOf('?filter=all&text=NAVY')).body).map((r) => r.name), ['Grace']);
  });

  it('reads in chunks and windows: an export larger than a chunk comes out whole and in order', async () => {
    const { exportStore, walkRows } = await import('../src/exports/store.ts');
    const store = exportStore(t.database.db, t.database.engine);
    const last = await store.lastSeq(form.id);
    const chunks: string[][] = [];
    for await (const chunk of walkRows(store, form.id, { filter: 'all' }, { first: await store.firstSeq(form.id), last }, 3)) chunks.push(chunk.map((r) => r.id));
    assert.deepEqual(chunks.flat(), ids);
    assert.ok(chunks.every((c) => c.length <= 3) && chunks.length >= 3);
  });

  it('refuses bad parameters with a 400 in the submissions envelope, and other owners\' forms with a 404', async () => {
    for (const query of ['?format=xlsx', '?filter=junk', '?from=yesterday', '?to=2026-13-45', '?from=%2B275760-09-13T00:00:00Z', '?from=99999-01-01',
      '?from=2026-02-01&to=2026-01-01', `?from=${'1'.repeat(5000)}`, '?bom=maybe']) {
      const r = await exportOf(query);
      assert.equal(r.statusCode, 400, `${query}: ${r.body}`);
      assert.equal(r.json().error.code, 400);
    }
    const other = await t.createKey();
    assert.equal((await exportOf('', other)).statusCode, 404);
    assert.equal((await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/export` })).statusCode, 401);
  });

  it('is recorded in the audit log as a read, and is in /openapi.json', async () => {
    const audit = (await t.request({ method: 'GET', url: '/api/audit?page_size=100', headers: bearer(key) })).json();
    const exportsSeen = audit.data.filter((e: { operation: string }) => e.operation === 'GET /api/forms/:form_id/submissions/export');
    assert.ok(exportsSeen.length > 0);
    assert.equal(exportsSeen[0].target_id, form.id);
    const spec = (await t.request({ method: 'GET', url: '/openapi.json' })).json();
    const op = spec.paths['/api/forms/{form_id}/submissions/export'].get;
    assert.ok(op.responses['200'].content['text/csv']);
  });
});
