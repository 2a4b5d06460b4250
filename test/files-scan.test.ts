// Malware scanning in the pipeline (issue 34), through real HTTP with a clamd the test starts
// (test/clamd.ts) and a real webhook receiver: an EICAR upload is quarantined (downloads refused, the
// owner told), a clean file passes, and while clamd is stopped notifications wait until it is back
// (and /healthz and the dashboard's health page say the scanner is down, with the submissions held).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clamdMissing, EICAR, SIGNATURE, startClamd, type Clamd } from './clamd.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { DashboardClient } from './dashboard-helpers.ts';
import { bearer, createForm, pathOf } from './helpers.ts';
import { settled, startPipelineApp, waitFor, type PipelineApp } from './pipeline-helpers.ts';

const SCHEMA = { fields: [{ name: 'name', type: 'string', required: true }, { name: 'cv', type: 'file', required: true, rules: [{ op: 'accept', value: ['text/plain'] }] }] };
const FOUND = `${SIGNATURE}.UNOFFICIAL`;

interface Hook { body: { data: { submission: { id: string; processing_reason: string | null } } } }

describe('malware scanning before notifications', { skip: clamdMissing }, () => {
  let clamd: Clamd;
  let t: PipelineApp;
  let receiver: FakeProvider;
  let base: string;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  let operator: DashboardClient;

  before(async () => {
    clamd = await startClamd();
    receiver = await startFakeProvider(() => ({ status: 200, body: { ok: true } }));
    t = await startPipelineApp({ INTAKE_CLAMAV_URL: `tcp://127.0.0.1:${clamd.port}`, INTAKE_CLAMAV_TIMEOUT_MS: '5000', INTAKE_OUTBOUND_ALLOW: '127.0.0.1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    key = await t.createKey();
    form = await createForm(t, key, { fields_schema: SCHEMA });
    operator = new DashboardClient(t);
    await operator.setUp();
    const destination = await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload: { type: 'webhook', url: `${receiver.url}/hook` } });
    assert.equal(destination.statusCode, 201, destination.body);
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
    await clamd?.cleanup();
  });

  async function upload(bytes: Buffer, filename: string): Promise<{ id: string; fileId: string }> {
    const body = new FormData();
    body.append('name', 'Ada');
    body.append('cv', new Blob([bytes]), filename);
    const response = await fetch(`${base}${pathOf(String(form.html_endpoint))}`, { method: 'POST', body, headers: { accept: 'application/json' } });
    assert.equal(response.status, 201, await response.clone().text());
    const created = await response.json() as { id: string; data: { cv: Array<{ id: string }> } };
    return { id: created.id, fileId: created.data.cv[0]!.id };
  }
  const hooksFor = (id: string) => receiver.requests.filter((r) => (r as unknown as Hook).body.data?.submission?.id === id) as unknown as Hook[];
  const get = (url: string) => t.request({ method: 'GET', url, headers: bearer(key) });
  /** /healthz's malware_scanner status once it is `status` (the answer is cached for a second). */
  const scannerHealth = (status: string) => waitFor(`the health check saying ${status}`, async () => {
    const health = (await t.request({ method: 'GET', url: '/healthz' })).json() as { malware_scanner: { status: string; effect?: string } };
    return health.malware_scanner.status === status ? health.malware_scanner : undefined;
  });

  it('quarantines an EICAR upload: downloads refused, no link offered, the owner told', async () => {
    const { id, fileId } = await upload(EICAR, 'eicar.txt');
    const done = await settled(t, key, form.id, id);
    assert.equal(done.processing_status, 'completed');
    assert.equal(done.processing_reason, `file_quarantined: ${FOUND} in cv (eicar.txt)`);
    const full = (await get(`/api/forms/${form.id}/submissions/${id}`)).json() as { files: Array<Record<string, unknown>> };
    assert.equal(full.files[0]!.quarantine, FOUND);
    assert.equal('download_url' in full.files[0]!, false);
    const download = await get(`/api/forms/${form.id}/submissions/${id}/files/${fileId}`);
    assert.equal(download.statusCode, 403);
    assert.equal(download.json().error.code, 'file_quarantined');
    const signed = await fetch(t.services.files.signedUrl(base, fileId, 60).url);
    assert.equal(signed.status, 403);
    assert.equal((await signed.json() as { error: { code: string } }).error.code, 'file_quarantined');
    const [hook] = await waitFor('the webhook', () => hooksFor(id)[0] && hooksFor(id));
    assert.match(String(hook!.body.data.submission.processing_reason), new RegExp(`^file_quarantined: ${FOUND.replace('.', '\\.')}`));
  });

  it('passes a clean file: notifications go out and the file downloads', async () => {
    const { id, fileId } = await upload(Buffer.from('a plain, harmless CV\n'), 'cv.txt');
    const done = await settled(t, key, form.id, id);
    assert.equal(done.processing_reason, null);
    await waitFor('the webhook', () => hooksFor(id)[0]);
    const full = (await get(`/api/forms/${form.id}/submissions/${id}`)).json() as { files: Array<Record<string, unknown>> };
    assert.equal(full.files[0]!.quarantine, null);
    assert.equal((await get(`/api/forms/${form.id}/submissions/${id}/files/${fileId}`)).statusCode, 200);
  });

  it('holds notifications while clamd is stopped, and sends them once it is back', async () => {
    await scannerHealth('up');
    await clamd.stop();
    let id: string;
    try {
      assert.match(String((await scannerHealth('down')).effect), /wait/);
      ({ id } = await upload(EICAR, 'later.txt'));
      // Several tries that found no scanner: the submission stays pending, nothing was sent.
      await waitFor('three waits for the scanner', () => (t.log.filter((l) => l.object.submissionId === id && l.message.includes('scanner unavailable')).length >= 3 ? true : undefined));
      const waiting = (await get(`/api/forms/${form.id}/submissions/${id}`)).json() as { processing_status: string; processing_reason: string };
      assert.notEqual(['completed', 'skipped', 'failed'].includes(waiting.processing_status), true);
      assert.match(waiting.processing_reason, /^scan_waiting: /);
      assert.equal(hooksFor(id).length, 0);
      // The operator's health page: the scanner is not answering, and one submission is held.
      const health = (await operator.get('/health')).body;
      assert.match(health, /Malware scanner<\/th><td>ClamAV: not answering\. Submissions with files wait, and their notifications go out once it answers: 1 submission with files held for a scan\./);
    } finally {
      await clamd.start();
    }
    const done = await settled(t, key, form.id, id);
    assert.equal(done.processing_reason, `file_quarantined: ${FOUND} in cv (later.txt)`);
    await scannerHealth('up');
    await waitFor('the webhook', () => hooksFor(id)[0]);
    assert.match((await operator.get('/health')).body, /Malware scanner<\/th><td>ClamAV: answering; 0 submissions with files held for a scan/);
  });
});
