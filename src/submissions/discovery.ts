// What an agent or a developer learns from GET on a submission endpoint: always the current
// schema and the current endpoint, whichever endpoint was asked. Honeypots stay secret.
import escapeHtml from 'escape-html';
import { captchaDiscovery } from '../captcha/index.ts';
import { isHoneypot, type FieldDefinition } from '../forms/field-schema.ts';
import { fileFields, fileRules } from '../files/rules.ts';
import { endpointUrl, htmlEndpointUrl } from '../forms/present.ts';
import type { FormRecord } from '../forms/store.ts';

export function discoveryDocument(form: FormRecord, baseUrl: string, maxUploadBytes: number) {
  const endpoint = endpointUrl(baseUrl, form.version);
  const captcha = captchaDiscovery(form, endpoint);
  const files = fileFields(form.version.schema.fields);
  return {
    name: form.name,
    slug: form.slug,
    endpoint,
    html_endpoint: htmlEndpointUrl(baseUrl, form.version),
    method: 'POST' as const,
    content_type: 'application/json' as const,
    visibility: form.visibility,
    version: form.version.number,
    fields: form.version.schema.fields.filter((field) => !isHoneypot(field)),
    ...(files.length > 0 && { files: filesDiscovery(files, htmlEndpointUrl(baseUrl, form.version), maxUploadBytes) }),
    ...(captcha && { captcha: captcha.provider === 'altcha' ? { ...captcha, widget_script: `${baseUrl}${ALTCHA_SCRIPT_PATH}` } : captcha }),
    ...(form.visibility === 'private' && {
      authentication: {
        type: 'bearer',
        header: 'Authorization',
        format: 'Bearer <SUBMISSION_TOKEN>',
        description: 'This form is private. Send the submission token the owner received when creating the form.',
      },
    }),
  };
}

/**
 * How to send files: as multipart/form-data parts to the HTML endpoint, asking for JSON answers
 * (docs/files.md says why not base64 in the JSON body), with each file field's limits.
 */
function filesDiscovery(fields: FieldDefinition[], htmlEndpoint: string, maxUploadBytes: number) {
  return {
    endpoint: htmlEndpoint,
    content_type: 'multipart/form-data' as const,
    accept: 'application/json' as const,
    max_upload_bytes: maxUploadBytes,
    description: 'Files are sent as multipart/form-data to this endpoint (one part per file, named after its field; the other fields as text parts), '
      + 'with Accept: application/json for the JSON answers. The type is decided from the bytes; a file over max_file_size or all files over '
      + 'max_upload_bytes get 413, a type outside accept 415, too many files 400. In data each file field holds a list of '
      + '{ id, filename, content_type, size, sha256 }.',
    fields: fields.map((field) => {
      const rules = fileRules(field);
      return { name: field.name, max_files: rules.maxFiles, max_file_size: Math.min(rules.maxFileSize, maxUploadBytes), accept: [...rules.accept] };
    }),
  };
}

/** Where Intake serves the ALTCHA widget (src/dashboard/assets.ts): no CDN, the same origin as the challenge. */
export const ALTCHA_SCRIPT_PATH = '/assets/altcha.js';

export type DiscoveryDocument = ReturnType<typeof discoveryDocument>;

function exampleValue(field: DiscoveryDocument['fields'][number]): unknown {
  const oneOf = field.rules.find((r) => r.op === 'one_of' && !r.when)?.values;
  if (oneOf && oneOf.length > 0) return oneOf[0];
  switch (field.type) {
    case 'email':
      return 'ada@example.com';
    case 'number':
      return 42;
    case 'boolean':
      return true;
    case 'date':
      return '2026-01-31';
    case 'file':
      return '(a file: see below)';
    default:
      return `Example ${field.name}`;
  }
}

function describeRule(rule: DiscoveryDocument['fields'][number]['rules'][number]): string {
  const param = rule.values ? rule.values.join(', ') : Array.isArray(rule.value) ? rule.value.join(', ') : rule.value !== undefined ? String(rule.value) : '';
  const when = rule.when ? ` when ${rule.when.field} ${rule.when.is}${rule.when.value !== undefined ? ` ${JSON.stringify(rule.when.value)}` : ''}` : '';
  return `${rule.op.replace(/_/g, ' ')}${param ? ` ${param}` : ''}${when}`;
}

/** A page for people who open the endpoint in a browser: what to send and how, with a copyable request. */
export function discoveryPage(doc: DiscoveryDocument): string {
  const example = Object.fromEntries(doc.fields.map((f) => [f.name, exampleValue(f)]));
  const auth = doc.authentication ? ` \\\n  -H 'Authorization: Bearer <SUBMISSION_TOKEN>'` : '';
  const curl = `curl -X POST '${doc.endpoint}' \\\n  -H 'Content-Type: application/json'${auth} \\\n  -d '${JSON.stringify(example).replace(/'/g, "'\\''")}'`;
  const rows = doc.fields
    .map(
      (f) =>
        `<tr><td><code>${escapeHtml(f.name)}</code></td><td>${f.type}</td><td>${f.required ? 'yes' : 'no'}</td>` +
        `<td>${f.rules.map((r) => escapeHtml(describeRule(r))).join('<br>') || '—'}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.name)} · submission endpoint</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
pre{background:#f4f4f6;padding:1rem;overflow:auto;border-radius:6px}code{font-family:ui-monospace,monospace}</style></head>
<body>
<h1>${escapeHtml(doc.name)}</h1>
<p>This is a submission endpoint for developers and agents, not a fillable form. Send a JSON object with the fields below.</p>
<p><strong>POST</strong> <code>${escapeHtml(doc.endpoint)}</code><br>Content-Type: <code>application/json</code> · schema version ${doc.version} · ${doc.visibility}</p>
${doc.captcha ? `<p><strong>CAPTCHA:</strong> ${escapeHtml(doc.captcha.provider)}. Send the solution in the member <code>${escapeHtml(doc.captcha.field)}</code>${'challenge_url' in doc.captcha ? ` (challenges from <code>${escapeHtml(doc.captcha.challenge_url)}</code>)` : ''}; without it the submission is refused with <code>403 captcha_failed</code>.</p>` : ''}
${doc.authentication ? `<p><strong>Authentication:</strong> ${escapeHtml(doc.authentication.description)} Header: <code>Authorization: Bearer &lt;SUBMISSION_TOKEN&gt;</code></p>` : ''}
<h2>Fields</h2>
<table><thead><tr><th>Name</th><th>Type</th><th>Required</th><th>Rules</th></tr></thead><tbody>
${rows || '<tr><td colspan="4">This form has no fields.</td></tr>'}
</tbody></table>
<h2>Example request</h2>
<pre><code>${escapeHtml(curl)}</code></pre>
<p>Success is <code>201</code> with <code>{ id, data, created_at }</code>. A failed validation is <code>400</code> with <code>error.details</code> naming each field.
Send an <code>Idempotency-Key</code> header to make retries safe. Ask this URL with <code>Accept: application/json</code> for this description as JSON.</p>
${doc.files ? filesSection(doc.files) : ''}
<h2>From a plain HTML page</h2>
<p>A <code>&lt;form method="POST" accept-charset="UTF-8"&gt;</code> posts to <code>${escapeHtml(doc.html_endpoint)}</code>, with or without JavaScript; the visitor is sent on to a thank-you page.</p>
</body></html>`;
}

function filesSection(files: NonNullable<DiscoveryDocument['files']>): string {
  const rows = files.fields.map((f) => `<li><code>${escapeHtml(f.name)}</code>: up to ${f.max_files} file${f.max_files === 1 ? '' : 's'} of at most ${f.max_file_size} bytes each; `
    + `types ${escapeHtml(f.accept.join(', '))}</li>`).join('\n');
  const example = `curl -X POST '${files.endpoint}' \\\n  -H 'Accept: application/json' \\\n  -F '${files.fields[0]?.name ?? 'file'}=@document.pdf'`;
  return `<h2>Files</h2>
<p>${escapeHtml(files.description)} All files of one submission together: at most ${files.max_upload_bytes} bytes.</p>
<ul>
${rows}
</ul>
<pre><code>${escapeHtml(example)}</code></pre>`;
}
