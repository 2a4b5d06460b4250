// Copyable snippets for a form: a plain HTML form that works with JavaScript off, the same form with
// a small fetch script that shows per-field errors from the API's `details` (both post to the HTML
// endpoint), a curl command, and a prompt an agent can follow (discover, then submit).
import escapeHtml from 'escape-html';
import { isHoneypot, type FieldDefinition } from '../../forms/field-schema.ts';
import { captchaDiscovery } from '../../captcha/index.ts';
import type { FormRecord } from '../../forms/store.ts';
import { ALTCHA_SCRIPT_PATH } from '../../submissions/discovery.ts';
import { html, type Html } from '../html.ts';
import { fileFields, fileRules } from '../../files/rules.ts';

const INPUT_TYPES: Record<FieldDefinition['type'], string> = { string: 'text', email: 'email', number: 'number', boolean: 'checkbox', date: 'date', file: 'file' };

function label(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The form's controls; with `errors`, a place under each for its message from the API's `details`. */
function inputFor(field: FieldDefinition, errors: boolean): string {
  const name = escapeHtml(field.name);
  const required = field.required ? ' required' : '';
  if (isHoneypot(field)) return honeypot(name);
  const control = field.type === 'boolean'
    ? `<input name="${name}" type="checkbox" value="true"${required}>`
    : field.name === 'message' || field.name === 'body'
      ? `<textarea name="${name}"${required}></textarea>`
      : `<input name="${name}" type="${INPUT_TYPES[field.type]}"${field.type === 'file' ? fileAttributes(field) : ''}${required}>`;
  return `  <label>${escapeHtml(label(field.name))} ${control}</label>${errors ? `\n  <p class="field-error" data-error-for="${name}"></p>` : ''}`;
}

/** multiple when the field takes several files, and the browser's picker narrowed to what the field accepts. */
function fileAttributes(field: FieldDefinition): string {
  const rules = fileRules(field);
  return `${rules.maxFiles > 1 ? ' multiple' : ''} accept="${escapeHtml(rules.accept.join(','))}"`;
}

const honeypot = (name: string) =>
  `  <!-- Left empty by people; bots fill it in. -->\n  <input name="${name}" type="text" tabindex="-1" autocomplete="off" style="position:absolute;left:-9999px" aria-hidden="true">`;

/** Intake's own honeypot: not shown, not read aloud, and filled in only by bots. */
const GOTCHA = '  <input name="_gotcha" type="text" tabindex="-1" autocomplete="off" style="display:none">';

/** The opening of both HTML snippets: the page's charset, and a form that posts to the HTML endpoint without any script. */
function formStart(form: FormRecord, htmlEndpoint: string, endpoint: string, id = ''): string {
  const note = form.visibility === 'private'
    ? '<!-- This form is private: a plain HTML post cannot send its submission token, so posts are refused (401) until it is public. -->\n'
    : '';
  return `<meta charset="utf-8"><!-- in the page's <head> -->
${captchaMarkup(form, endpoint).script}${note}<form${id} action="${escapeHtml(htmlEndpoint)}" method="POST" accept-charset="UTF-8"${fileFields(form.version.schema.fields).length > 0 ? ' enctype="multipart/form-data"' : ''}>`;
}

/**
 * The form's CAPTCHA on the page: the widget's script (ALTCHA's from Intake itself, a hosted
 * provider's from that provider, as its own docs give it) and the element that puts the token in the
 * field the endpoint reads. Empty without CAPTCHA. `endpoint` is the JSON endpoint: the challenge's.
 */
function captchaMarkup(form: FormRecord, endpoint: string): { script: string; element: string } {
  const captcha = captchaDiscovery(form, endpoint);
  if (!captcha) return { script: '', element: '' };
  if (captcha.provider === 'altcha') {
    const base = endpoint.slice(0, endpoint.lastIndexOf('/api/'));
    return {
      script: `<script src="${escapeHtml(base + ALTCHA_SCRIPT_PATH)}" defer></script><!-- in the page's <head> -->\n`,
      element: `\n  <altcha-widget challenge="${escapeHtml(captcha.challenge_url)}"></altcha-widget>`,
    };
  }
  const hosted = {
    turnstile: ['https://challenges.cloudflare.com/turnstile/v0/api.js', 'cf-turnstile'],
    hcaptcha: ['https://js.hcaptcha.com/1/api.js', 'h-captcha'],
    recaptcha: ['https://www.google.com/recaptcha/api.js', 'g-recaptcha'],
  }[captcha.provider];
  return {
    script: `<script src="${hosted[0]}" async defer></script><!-- in the page's <head> -->\n`,
    element: `\n  <div class="${hosted[1]}" data-sitekey="${escapeHtml(captcha.site_key)}"></div>`,
  };
}

/** Works with JavaScript off: the browser posts, Intake answers with its thank-you page (or the form's redirect_url). */
export function plainHtmlSnippet(form: FormRecord, htmlEndpoint: string, endpoint: string): string {
  return `${formStart(form, htmlEndpoint, endpoint)}
${form.version.schema.fields.map((field) => inputFor(field, false)).join('\n')}
${GOTCHA}${captchaMarkup(form, endpoint).element}
  <button type="submit">Send</button>
</form>`;
}

/** Posts FormData to the HTML endpoint asking for JSON, and shows each field's error; without scripts it is the plain form. */
export function htmlSnippet(form: FormRecord, htmlEndpoint: string, endpoint: string): string {
  return `${formStart(form, htmlEndpoint, endpoint, ' id="intake-form"')}
${form.version.schema.fields.map((field) => inputFor(field, true)).join('\n')}
${GOTCHA}${captchaMarkup(form, endpoint).element}
  <button type="submit">Send</button>
  <p id="intake-status" role="status"></p>
</form>
<script>
// With this script, Intake's own per-field messages replace the browser's checks; without it, the browser checks.
document.getElementById('intake-form').noValidate = true;
document.getElementById('intake-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const status = document.getElementById('intake-status');
  for (const p of form.querySelectorAll('[data-error-for]')) p.textContent = '';
  status.textContent = 'Sending…';
  try {
    const response = await fetch(form.action, { method: 'POST', headers: { Accept: 'application/json' }, body: new FormData(form) });
    const result = await response.json().catch(() => ({}));
    if (response.ok) { form.reset(); status.textContent = 'Thank you! We received your message.'; return; }
    for (const [field, messages] of Object.entries(result.error?.details ?? {})) {
      const p = form.querySelector('[data-error-for="' + CSS.escape(field) + '"]');
      if (p) p.textContent = messages.join(', ');
    }
    status.textContent = result.error?.message ?? 'Something went wrong. Please try again.';
  } catch {
    status.textContent = 'Could not reach the server. Please try again.';
  }
});
</script>`;
}

function exampleValue(field: FieldDefinition): unknown {
  switch (field.type) {
    case 'email': return 'ada@example.com';
    case 'number': return 42;
    case 'boolean': return true;
    case 'date': return '2026-01-31';
    default: return field.name === 'message' ? 'Hello!' : 'Ada Lovelace';
  }
}

export function curlSnippet(form: FormRecord, endpoint: string): string {
  const example = Object.fromEntries(form.version.schema.fields.filter((f) => !isHoneypot(f)).map((f) => [f.name, exampleValue(f)]));
  const body = JSON.stringify(example).replace(/'/g, `'\\''`);
  const auth = form.visibility === 'private' ? ` \\\n  -H 'Authorization: Bearer YOUR_SUBMISSION_TOKEN'` : '';
  return `curl -X POST '${endpoint}' \\\n  -H 'Content-Type: application/json'${auth} \\\n  -d '${body}'`;
}

export function agentPrompt(form: FormRecord, endpoint: string): string {
  const auth = form.visibility === 'private'
    ? '\nThe form is private: send the header "Authorization: Bearer YOUR_SUBMISSION_TOKEN" with both requests.'
    : '';
  return `You can submit to the form "${form.name}" over HTTP.
1. Discover it: GET ${endpoint}
   The JSON answer lists its fields (name, type, required, rules) and the endpoint to use.
2. Submit: POST a JSON object of field names and values to that endpoint with
   "Content-Type: application/json". A 201 means it was stored.
3. If the answer is 400 with error.code "validation_error", read error.details: it names each
   field that failed and why.
   Fix those fields and submit again. On 429, wait for the Retry-After seconds.${auth}
Send only what the person asked you to send; never invent contact details.`;
}

function snippet(id: string, title: string, text: string): Html {
  return html`<section class="snippet">
  <div class="snippet-head"><h3 id="${id}-title">${title}</h3><button type="button" class="button secondary small" data-copy="#${id}">Copy</button></div>
  <pre role="region" tabindex="0" aria-labelledby="${id}-title"><code id="${id}">${text}</code></pre>
</section>`;
}

export function snippetsSection(form: FormRecord, endpoint: string, htmlEndpoint: string): Html {
  return html`<section aria-labelledby="snippets-title" class="panel">
  <h2 id="snippets-title">Use this form</h2>
  <p class="muted">Paste the plain HTML into any page: it works with JavaScript off, and visitors land on a thank-you page. The fetch version stays on the page and shows each field's error.</p>
  ${snippet('snippet-plain', 'Plain HTML', plainHtmlSnippet(form, htmlEndpoint, endpoint))}
  ${snippet('snippet-html', 'HTML with fetch', htmlSnippet(form, htmlEndpoint, endpoint))}
  ${snippet('snippet-curl', 'curl', curlSnippet(form, endpoint))}
  ${snippet('snippet-agent', 'Prompt for an agent', agentPrompt(form, endpoint))}
</section>`;
}
