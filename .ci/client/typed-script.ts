// A client written only from Intake's /openapi.json: test/generated-client.test.ts generates
// schema.d.ts beside this file with openapi-typescript, type-checks it with `tsc --strict` and runs
// it with Node (type stripping: erasable syntax only). No casts: each call's path, parameters and
// body are checked against the generated types. It prints one JSON line the test asserts on.
import createClient from 'openapi-fetch';
import type { paths } from './schema.d.ts';

const baseUrl = process.env.INTAKE_URL;
const apiKey = process.env.INTAKE_API_KEY;
if (!baseUrl || !apiKey) throw new Error('INTAKE_URL and INTAKE_API_KEY must be set');

const owner = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
// A submitter has no key: a public form takes anyone's post.
const submitter = createClient<paths>({ baseUrl });

const word = `generated${Date.now().toString(36)}`;
const created = await owner.POST('/api/forms', {
  body: {
    name: 'Generated client',
    slug: `generated-${word}`,
    visibility: 'public',
    fields_schema: { fields: [{ name: 'email', type: 'email', required: true }, { name: 'message', type: 'string' }] },
  },
});
if (!created.data) throw new Error(`createForm: ${created.response.status} ${JSON.stringify(created.error)}`);
const form = created.data;

// The endpoint is a full URL, /api/{segment}/f/{slug}: the operation's path parameters come from it.
const [, segment, , slug] = new URL(form.endpoint).pathname.split('/').filter(Boolean);
if (!segment || !slug) throw new Error(`unexpected endpoint ${form.endpoint}`);

const idempotencyKey = `key-${word}`;
const submit = () => submitter.POST('/api/{segment}/f/{slug}', {
  params: { path: { segment, slug }, header: { 'Idempotency-Key': idempotencyKey } },
  body: { email: 'reader@example.com', message: `Hello from ${word}` },
});
const first = await submit();
const replay = await submit();
if (!first.data || !replay.data) throw new Error(`submitToForm: ${first.response.status} ${replay.response.status}`);

const read = await owner.GET('/api/forms/{form_id}/submissions/{id}', {
  params: { path: { form_id: form.id, id: first.data.id } },
});
const listed = await owner.GET('/api/forms/{form_id}/submissions', {
  params: { path: { form_id: form.id }, query: { search: word, sort_order: 'asc', page_size: 10 } },
});
const missed = await owner.GET('/api/forms/{form_id}/submissions', {
  params: { path: { form_id: form.id }, query: { search: `${word}-nowhere` } },
});
const deleted = await owner.DELETE('/api/forms/{form_id}/submissions/{id}', {
  params: { path: { form_id: form.id, id: first.data.id } },
});
const after = await owner.GET('/api/forms/{form_id}/submissions/{id}', {
  params: { path: { form_id: form.id, id: first.data.id } },
});

console.log(JSON.stringify({
  create: created.response.status,
  submit: { status: first.response.status, id: first.data.id },
  replay: { status: replay.response.status, id: replay.data.id },
  read: { status: read.response.status, id: read.data?.id, message: read.data?.data['message'] },
  list: { status: listed.response.status, ids: listed.data?.data.map((s) => s.id), total: listed.data?.meta.total_count },
  listMissed: { status: missed.response.status, total: missed.data?.meta.total_count },
  delete: { status: deleted.response.status, id: deleted.data?.id },
  readAfterDelete: after.response.status,
}));
