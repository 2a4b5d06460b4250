// A quarantined file in exports and in a data subject's export (issue 34), with a clamd the test
// starts (test/clamd.ts): as in notifications, the infected file is named with the signature clamd
// found and has no link (that link would only answer 403), while the clean file beside it keeps a
// link that downloads its bytes over real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clamdMissing, EICAR, SIGNATURE, startClamd, type Clamd } from './clamd.ts';
import { unusedUrl } from './fake-provider.ts';
import { bearer, createForm, settled, startPipelineApp, type PipelineApp } from './pipeline-helpers.ts';

const SCHEMA = { fields: [{ name: 'email', type: 'email', required: true }, { name: 'cv', type: 'file', required: true, rules: [{ op: 'accept', value: ['text/plain'] }, { op: 'max_files', value: 2 }] }] };
const FOUND = `${SIGNATURE}.UNOFFICIAL`;
const CLEAN = Buffer.from('a plain, harmless CV\n');
const MARK = `quarantined, malware found (${FOUND}); no download link`;

describe('a quarantined file in exports and data-subject exports', { skip: clamdMissing }, () => {
  let clamd: Clamd;
  let t: PipelineApp;
  let base: string;
  let key: string;
  let formId: string;
  let infected: string;
  let clean: string;

  before(async () => {
    clamd = await startClamd();
    base = await unusedUrl();
    t = await startPipelineApp({ INTAKE_PUBLIC_URL: base, INTAKE_CLAMAV_URL: `tcp://127.0.0.1:${clamd.port}`, INTAKE_CLAMAV_TIMEOUT_MS: '5000' });
    await t.app.listen({ port: Number(new URL(base).port), host: '127.0.0.1' });
    key = await t.createKey();
    const form = await createForm(t, key, { fields_schema: SCHEMA });
    formId = form.id;
    const upload = new FormData();
    upload.append('email', 'ada@example.com');
    upload.append('cv', new Blob([EICAR]), 'eicar.txt');
    upload.append('cv', new Blob([CLEAN]), 'cv.txt');
    const posted = await fetch(`${base}${new URL(String(form.html_endpoint)).pathname}`, { method: 'POST', body: upload, headers: { accept: 'application/json' } });
    assert.equal(posted.status, 201, await posted.clone().text());
    const submission = await posted.json() as { id: string; data: { cv: Array<{ id: string }> } };
    [infected, clean] = submission.data.cv.map((file) => file.id) as [string, string];
    // Settled means scanned: the pipeline's scan step ran before the submission left `pending`.
    const done = await settled(t, key, formId, submission.id);
    assert.match(String(done.processing_reason), /^file_quarantined/);
  });
  after(async () => {
    await t?.close();
    await clamd?.cleanup();
  });

  async function assertClean(url: string) {
    assert.ok(url.startsWith(`${base}/files/${clean}?expires=`), url);
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(CLEAN));
  }
  const noLinkTo = (text: string, id: string) => assert.equal(text.includes(`/files/${id}`), false, `no link to ${id} in ${text}`);

  it('CSV: the infected file named with its signature, no link; the clean one linked', async () => {
    const response = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions/export?format=csv&filter=all`, headers: bearer(key) });
    assert.equal(response.statusCode, 200, response.body);
    noLinkTo(response.body, infected);
    const lines = response.body.match(/"eicar\.txt[^"]*"/)![0].slice(1, -1).split('\n');
    assert.equal(lines[0], `eicar.txt: ${MARK}`);
    assert.match(lines[1]!, /^cv\.txt http:\/\/\S+$/);
    await assertClean(lines[1]!.split(' ')[1]!);
  });

  it('JSON and NDJSON: url and expires_at null and quarantine set for the infected file', async () => {
    for (const format of ['json', 'ndjson']) {
      const response = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions/export?format=${format}&filter=all`, headers: bearer(key) });
      assert.equal(response.statusCode, 200, response.body);
      noLinkTo(response.body, infected);
      const row = (format === 'json' ? (response.json() as unknown[])[0] : JSON.parse(response.body.trim())) as { data: { cv: Array<Record<string, unknown>> } };
      assert.deepEqual(row.data.cv.map((f) => [f.id, f.url === null, f.expires_at === null, f.quarantine ?? null]), [[infected, true, true, FOUND], [clean, false, false, null]]);
      await assertClean(String(row.data.cv[1]!.url));
    }
  });

  it("a data subject's export: the infected file named with its signature, no link", async () => {
    const response = await t.request({ method: 'POST', url: '/api/data-subjects/export', headers: bearer(key), payload: { email: 'ada@example.com' } });
    assert.equal(response.statusCode, 200, response.body);
    noLinkTo(response.body, infected);
    const { files } = response.json() as { files: Array<Record<string, unknown>> };
    const byId = new Map(files.map((f) => [f.id, f]));
    assert.deepEqual([infected, clean].map((id) => [byId.get(id)?.filename, byId.get(id)?.url === null, byId.get(id)?.expires_at === null, byId.get(id)?.quarantine]), [
      ['eicar.txt', true, true, FOUND],
      ['cv.txt', false, false, null],
    ]);
    await assertClean(String(byId.get(clean)!.url));
  });
});
