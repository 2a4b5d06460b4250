// /openapi.json against what the server does: every documented operation is called the ways a
// generated client or a property-based tester would (no key, a read key on a write, a body that is
// not JSON, not JSON at all, an empty object, a bad query, an unknown id, and as the owner), and
// every answer must be documented: its status, its content type and the shape of its body.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';
import { invalidBodiesOf, valuesOf } from './schema-arbitrary.ts';
import { openApiDocument } from './openapi-document.ts';
import { addSafeFormats } from '../src/http/json-formats.ts';
import { agentPrompt } from '../src/dashboard/pages/snippets.ts';

type Media = Record<string, { schema?: object }>;
type Parameter = { name: string; in: string; required?: boolean; schema?: object };
/** Security that a request must meet: none, or one whose alternatives include `{}` (anonymous, e.g. a public form's endpoint) does not need credentials. */
const requiresAuth = (operation: { security?: unknown[] }) => (operation.security?.length ?? 0) > 0 && !operation.security!.some((s) => typeof s === 'object' && s !== null && Object.keys(s).length === 0);

type Operation = { security?: unknown[]; requestBody?: { content: Media }; parameters?: Parameter[]; responses: Record<string, { content?: Media }> };

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('OpenAPI document against the server', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>> };
  let fullKey: string;
  let readKey: string;
  let endpoint: { segment: string; slug: string };
  let formId: string;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addSafeFormats(ajv, ['uuid', 'date-time', 'date', 'uri', 'email']);
  before(async () => {
    t = await startTestApp();
    doc = (await openApiDocument<typeof doc>(t)).resolved;
    fullKey = await t.createKey('contract@example.com');
    readKey = (await t.services.accounts.createKey({ email: 'contract@example.com', name: 'reader', scope: 'read' })).key;
    const form = await createForm(t, fullKey);
    formId = form.id;
    const [, , segment, , slug] = pathOf(form.endpoint).split('/');
    endpoint = { segment: segment!, slug: slug! };
  });
  after(() => t.close());

  function urlOf(template: string, known: boolean): string {
    return template.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'segment') return known ? endpoint.segment : 'nope';
      if (name === 'slug') return known ? endpoint.slug : 'nope';
      return UNKNOWN_ID;
    });
  }

  it('documents every status, content type and body the server answers with', async () => {
    const problems: string[] = [];
    let calls = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const secured = requiresAuth(operation);
        const hasQuery = operation.parameters?.some((p) => p.in === 'query') ?? false;
        const attempts: Array<{ name: string; headers: Record<string, string>; payload?: string; query?: string; known?: boolean }> = [
          { name: 'as the owner', headers: bearer(fullKey), known: true },
          { name: 'unknown ids', headers: bearer(fullKey) },
        ];
        if (secured) attempts.push({ name: 'no key', headers: {} }, { name: 'a wrong key', headers: bearer('ik_wrong') });
        if (secured && method !== 'get') attempts.push({ name: 'a read key', headers: bearer(readKey), known: true });
        if (operation.requestBody) {
          attempts.push(
            { name: 'broken JSON', headers: { ...bearer(fullKey), 'content-type': 'application/json' }, payload: '{"a":', known: true },
            { name: 'not JSON', headers: { ...bearer(fullKey), 'content-type': 'text/plain' }, payload: 'hello', known: true },
            { name: 'an empty object', headers: { ...bearer(fullKey), 'content-type': 'application/json' }, payload: '{}', known: true },
            { name: 'a NUL', headers: { ...bearer(fullKey), 'content-type': 'application/json' }, payload: '{"name":"a\\u0000b","content":"x\\u0000"}', known: true },
          );
        }
        if (hasQuery) attempts.push({ name: 'a bad query', headers: bearer(fullKey), query: 'page=0&page_size=-1&filter=nope', known: true });

        for (const attempt of attempts) {
          const url = `${urlOf(template, attempt.known ?? false)}${attempt.query ? `?${attempt.query}` : ''}`;
          const response = await t.request({ method: method.toUpperCase() as 'GET', url, headers: attempt.headers, ...(attempt.payload !== undefined && { payload: attempt.payload }) });
          calls++;
          const where = `${method.toUpperCase()} ${template} (${attempt.name}) → ${response.statusCode}`;
          const documented = operation.responses[String(response.statusCode)];
          if (!documented) {
            problems.push(`${where}: status not documented`);
            continue;
          }
          if (response.statusCode >= 500) problems.push(`${where}: a 5xx`);
          const media = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
          if (!documented.content || response.body === '') continue;
          const described = documented.content[media];
          if (!described) {
            problems.push(`${where}: answered ${media}, documented ${Object.keys(documented.content).join(', ')}`);
            continue;
          }
          if (media === 'application/json' && described.schema) {
            const validate = ajv.compile(described.schema);
            if (!validate(response.json())) problems.push(`${where}: body does not match: ${ajv.errorsText(validate.errors)} ${response.body.slice(0, 200)}`);
          }
        }
      }
    }
    assert.ok(calls > 150, `${calls} calls`);
    assert.deepEqual(problems, []);
  });

  /** Refusals that say the request broke a rule of its schema: a request valid by the document must never get one. */
  const SCHEMA_REFUSALS = new Set(['validation_error', 'invalid_body', 'invalid_parameters', 'malformed_json']);
  /** The statuses with which the server may refuse a request the document allows: what the schema cannot know. */
  const SEMANTIC_REFUSALS = new Set([404, 409, 422]);
  const errorCode = (body: unknown): unknown => {
    // The forms family's validation body is the spec's `{ "errors": { field: [messages] } }`, without a code.
    if (typeof body === 'object' && body !== null && 'errors' in body) return 'validation_error';
    const error = (body as { error?: unknown; code?: unknown } | null)?.error;
    return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : error ?? (body as { code?: unknown } | null)?.code;
  };

  /** What JSON Schema cannot say, and the parameter descriptions do: an export's `from` is not after its `to`. */
  const crossFieldRules = (values: Record<string, unknown>) =>
    typeof values.from === 'string' && typeof values.to === 'string' && Date.parse(values.from) > Date.parse(values.to) ? { ...values, from: values.to, to: values.from } : values;
  type Field = { name: string; type: string; rules?: Array<{ when?: { field: string } }> };
  /**
   * What a form's description says and JSON Schema cannot: a condition names another field of the form,
   * and names are unique. Generated bodies are made to keep it, and only the first field keeps its
   * conditions (whose values must also take the other field's type), so that most reach the other rules.
   * Half of the knowledge bases and reply fields named are made real ones, so both answers are seen.
   */
  const formReferences = (kbId: string) => (body: unknown): unknown => {
    const form = body as { fields_schema?: { fields: Field[] }; knowledge_base_id?: string | null; reply_email_field?: string | null };
    if (typeof form !== 'object' || form === null) return body;
    const fixed: typeof form = { ...form };
    if (form.fields_schema) {
      const seen = new Set<string>();
      const fields = form.fields_schema.fields.filter((field) => !seen.has(field.name) && seen.add(field.name));
      fixed.fields_schema = {
        fields: fields.map((field, index) => {
          const other = fields.find((_, i) => i !== index);
          const rules = field.rules?.map(({ when, ...rule }) => (when && other && index === 0 ? { ...rule, when: { ...when, field: other.name } } : rule));
          return rules ? { ...field, rules } : field;
        }),
      };
      const email = fields.find((field) => field.type === 'email');
      if (typeof form.reply_email_field === 'string' && form.reply_email_field.length % 2 === 0) fixed.reply_email_field = email?.name ?? null;
    }
    if (typeof form.knowledge_base_id === 'string' && /^[0-7]/.test(form.knowledge_base_id)) fixed.knowledge_base_id = kbId;
    return fixed;
  };

  /** Each member's messages all match its pattern (and some member was named). */
  const refusedOnlyFor = (body: unknown, allowed: Record<string, RegExp>) => {
    const errors = Object.entries(fieldErrors(body));
    return errors.length > 0 && errors.every(([field, messages]) => allowed[field] !== undefined && messages.every((m) => allowed[field]!.test(m)));
  };
  /** The operator's policy for outbound URLs (OUTBOUND_*): plain HTTP only to hosts it allows, no private address. */
  const URL_POLICY = /^(must be an HTTPS URL|points to )/;
  /**
   * Refusals of requests the document allows, each a rule JSON Schema cannot say, which the operation's
   * description says instead; any other refusal of a valid request fails the test.
   * - A form (POST /api/forms, PUT /api/forms/{id}): what field-schema.ts checks beyond the schema (a
   *   condition's value of the other field's type, a pattern that compiles, a minimum not above its
   *   maximum, a honeypot alone); a knowledge base of the owner's and a slug not taken (stored data); a
   *   reply_email_field naming an email field (another member, or on a change the stored schema), and its
   *   alias smart_reply_email_field the same value when both are given; the URL policy. On a change, what the body leaves out is as stored, so an enabled webhook or smart
   *   reply may still lack its URL, secret or knowledge base, and a hosted CAPTCHA provider its keys.
   * - A destination: the URL policy; an email destination with neither recipients nor recipients_role
   *   (one or both, teams); on a change, the members of another type than the stored one's, and a
   *   type other than the stored one.
   */
  const FORM_RULES: Record<string, RegExp> = {
    fields_schema: /has a condition \(\w+\) whose value|invalid regular expression|is greater than|a honeypot field cannot|is given more than once/,
    knowledge_base_id: /^does not name a knowledge base of yours$/,
    slug: /^has already been taken$/,
    reply_email_field: /^(is not a field of this form|must name a field of type email)$/,
    smart_reply_email_field: /^differs from reply_email_field/,
    webhook_url: URL_POLICY,
  };
  const STORED_FORM: Record<string, RegExp> = {
    ...FORM_RULES,
    webhook_url: new RegExp(`${URL_POLICY.source}|^is required when webhook_enabled is true$`),
    webhook_secret: /^is required when webhook_enabled is true$/,
    knowledge_base_id: new RegExp(`${FORM_RULES.knowledge_base_id!.source}|^is required when smart_reply_enabled is true$`),
    captcha_site_key: /^is required when captcha_provider is (turnstile|hcaptcha|recaptcha)$/,
    captcha_secret: /^is required when captcha_provider is (turnstile|hcaptcha|recaptcha)$/,
  };
  const notApplying = /^does not apply to an? \w+ destination$/;
  const OPEN_REFUSALS: Array<(where: string, status: number, body: unknown) => boolean> = [
    // A signed file link's signature and expiry are what no schema can check (issue 34).
    (where, status) => where === 'GET /files/{file_id}' && status === 403,
    (where, status, body) => where === 'POST /api/forms' && status === 422 && refusedOnlyFor(body, FORM_RULES),
    // Knowledge-base content with nothing to answer from (a heading of punctuation), as the operation's description says.
    (where, status, body) => /^(POST \/api\/knowledge_bases|PUT \/api\/knowledge_bases\/\{id\})$/.test(where) && status === 422
      && JSON.stringify((body as { error?: { details?: unknown } } | null)?.error?.details) === JSON.stringify({ content: ['has no text to answer from'] }),
    (where, status, body) => where === 'PUT /api/forms/{id}' && status === 422 && refusedOnlyFor(body, STORED_FORM),
    (where, status, body) => where === 'POST /api/forms/{form_id}/destinations' && status === 422
      && refusedOnlyFor(body, { url: URL_POLICY, recipients: /^needs at least one email address, or recipients_role$/ }),
    (where, status, body) => where === 'PATCH /api/forms/{form_id}/destinations/{id}' && status === 422
      && refusedOnlyFor(body, { type: /^cannot change/, url: new RegExp(`${URL_POLICY.source}|${notApplying.source}`), bot_token: notApplying, chat_id: notApplying, recipients: notApplying, recipients_role: notApplying }),
  ];
  const fieldErrors = (body: unknown): Record<string, string[]> => (body as { errors?: Record<string, string[]> } | null)?.errors ?? { body: ['no field errors'] };

  it('answers fast-check-generated valid, invalid and unauthenticated requests as documented', async () => {
    // Real ids for each path: a form to change (not the one whose endpoint is submitted to), a submission,
    // a knowledge base and a destination, so that valid requests reach the rules rather than a 404.
    const scratch = await createForm(t, fullKey);
    const submitUrl = `/api/${endpoint.segment}/f/${endpoint.slug}`;
    const submitted = await t.request({ method: 'POST', url: submitUrl, payload: { name: 'Ada', email: 'ada@example.com', message: 'Hello there, a question.' } });
    assert.equal(submitted.statusCode, 201, submitted.body);
    const created = async (url: string, payload: object) => {
      const response = await t.request({ method: 'POST', url, headers: bearer(fullKey), payload });
      assert.equal(response.statusCode, 201, `${url}: ${response.body}`);
      return (response.json() as { id: string }).id;
    };
    const kbId = await created('/api/knowledge_bases', { name: 'FAQ', content: 'Q: Hours?\nA: Nine to five.' });
    const destinationId = await created(`/api/forms/${formId}/destinations`, { type: 'webhook', url: 'https://example.com/hook' });
    const ids: Array<[RegExp, string]> = [
      [/^\/api\/forms\/\{id\}/, scratch.id],
      [/^\/api\/forms\/\{form_id\}\/submissions\/\{id\}/, submitted.json().id],
      [/^\/api\/knowledge_bases\/\{id\}/, kbId],
      [/^\/api\/forms\/\{form_id\}\/destinations\/\{id\}/, destinationId],
    ];
    const pathOfOperation = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'segment') return endpoint.segment;
      if (name === 'slug') return endpoint.slug;
      if (name === 'form_id') return formId;
      if (name === 'id') return ids.find(([pattern]) => pattern.test(template))?.[1] ?? UNKNOWN_ID;
      return UNKNOWN_ID;
    });

    const problems: string[] = [];
    let calls = 0;
    const check = async (where: string, method: string, url: string, headers: Record<string, string>, operation: Operation, body: unknown, expect: 'valid' | 'invalid' | 'unauthenticated') => {
      const response = await t.request({ method: method.toUpperCase() as 'GET', url, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(body !== undefined && { payload: JSON.stringify(body) }) });
      calls++;
      const status = response.statusCode;
      const said = `${where} (${expect}) → ${status} for ${JSON.stringify(body)?.slice(0, 160)} ${url.slice(0, 120)}`;
      const documented = operation.responses[String(status)];
      if (!documented) return void problems.push(`${said}: status not documented`);
      const media = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
      const json = media === 'application/json' && response.body !== '' ? response.json() : undefined;
      if (documented.content && response.body !== '') {
        const described = documented.content[media];
        if (!described) return void problems.push(`${said}: answered ${media}, documented ${Object.keys(documented.content).join(', ')}`);
        if (json !== undefined && described.schema && !ajv.validate(described.schema, json)) problems.push(`${said}: body does not match: ${ajv.errorsText(ajv.errors)}`);
      }
      if (status >= 500) problems.push(`${said}: a 5xx`);
      if (expect === 'unauthenticated' && status !== 401) problems.push(`${said}: not 401`);
      if (expect === 'invalid' && (status < 400 || status >= 500)) problems.push(`${said}: accepted a request its schema refuses`);
      if (expect === 'valid' && status >= 400) {
        // The public endpoint's fields are each form's own, not in the document: its 400 validation_error is the spec's.
        const perFormFields = where.startsWith('POST /api/{segment}/f/{slug}') && errorCode(json) === 'validation_error';
        const open = OPEN_REFUSALS.some((known) => known(where, status, json));
        if (!perFormFields && !open && (!SEMANTIC_REFUSALS.has(status) || SCHEMA_REFUSALS.has(String(errorCode(json))))) {
          problems.push(`${said}: refused a request its schema allows (${String(errorCode(json))}) ${response.body.slice(0, 200)}`);
        }
      }
    };

    const operations = Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, operation]) => ({ path, method, operation })))
      // Deletions last, so that the ids the others use still exist.
      .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
    for (const { path, method, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const bodySchema = operation.requestBody?.content['application/json']?.schema;
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query' && p.schema);
      if (!bodySchema && query.length === 0 && method !== 'get') continue; // nothing to generate; the fixed calls above cover it
      const validBody = bodySchema ? ajv.compile(bodySchema) : null;
      const queries = fc.record(Object.fromEntries(query.map((p) => [p.name, valuesOf(p.schema!)])), { requiredKeys: query.filter((p) => p.required).map((p) => p.name) })
        .map(crossFieldRules);
      const urlWith = (values: Record<string, unknown>) => {
        const search = new URLSearchParams(Object.entries(values).map(([name, value]): [string, string] => [name, String(value)])).toString();
        return `${pathOfOperation(path)}${search ? `?${search}` : ''}`;
      };
      const headers = requiresAuth(operation) ? bearer(fullKey) : {};
      const body = bodySchema ? valuesOf(bodySchema).filter((value) => validBody!(value)).map(path === '/api/forms' || path === '/api/forms/{id}' ? formReferences(kbId) : (value) => value) : fc.constant(undefined);
      await fc.assert(fc.asyncProperty(body, queries, async (value, values) => {
        await check(where, method, urlWith(values), headers, operation, value, 'valid');
      }), { numRuns: bodySchema ? 80 : 15, endOnFailure: true });
      if (bodySchema) {
        const invalid = invalidBodiesOf(bodySchema).filter((value) => !validBody!(value));
        await fc.assert(fc.asyncProperty(invalid, async (value) => {
          await check(where, method, pathOfOperation(path), headers, operation, value, 'invalid');
        }), { numRuns: 10, endOnFailure: true });
      }
      if (requiresAuth(operation)) {
        const strangers = fc.oneof(fc.constant({}), fc.string({ minLength: 1, maxLength: 60 }).filter((key) => /^[\x21-\x7e]+$/.test(key)).map((key) => bearer(key)));
        await fc.assert(fc.asyncProperty(strangers, body, async (stranger, value) => {
          await check(where, method, pathOfOperation(path), stranger, operation, value, 'unauthenticated');
        }), { numRuns: 4, endOnFailure: true });
      }
    }
    assert.ok(calls > 300, `${calls} calls`);
    assert.deepEqual([...new Set(problems.map((p) => p.replace(/ for .*?: /, ': ').replace(/\) \{.*$/s, ')')))].slice(0, 40), [], problems.slice(0, 10).join('\n'));
  });

  it('tells agents, in the prompt the dashboard offers, the status an invalid submission really gets', async () => {
    const form = (await t.services.forms.list((await t.services.accounts.find('contract@example.com'))!.id))[0]!;
    const url = `/api/${endpoint.segment}/f/${endpoint.slug}`;
    const invalid = await t.request({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"email":"not an address"}' });
    const prompt = agentPrompt(form, `http://localhost${url}`);
    assert.match(prompt, new RegExp(`answer is ${invalid.statusCode} with error.code "${invalid.json().error.code}"`));
  });

  it('leaves the dashboard pages out of the API reference, and marks no defaulted parameter required', () => {
    const paths = Object.keys(doc.paths);
    // Outside /api/: where a plain HTML <form> posts (issue 33), and the signed file links (issue 34).
    const api = (path: string) => path.startsWith('/api/') || path === '/f/{segment}/{slug}' || path === '/files/{file_id}';
    assert.ok(paths.every(api), paths.filter((path) => !api(path)).join(', '));
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of (operation.parameters ?? []) as Array<{ in: string; name: string; required?: boolean; schema?: { default?: unknown } }>) {
          if (parameter.in === 'query') assert.ok(!(parameter.required && parameter.schema?.default !== undefined), `${method} ${template} ${parameter.name}`);
        }
      }
    }
  });
});
