// The page shell and the small pieces every page uses: navigation, forms with their CSRF token,
// labelled inputs with their errors.
import type { FastifyReply } from 'fastify';
import { html, type Html } from './html.ts';
import { assetUrl } from './assets.ts';
import type { Session } from './service.ts';

export type Errors = Record<string, string>;

export interface PageOptions {
  title: string;
  session: Session | null;
  /** The navigation entry to mark current. */
  section?: 'overview' | 'forms' | 'knowledge' | 'integrations' | 'team' | 'audit' | 'account' | 'health';
  body: Html;
  /** Narrow centred card for the sign-in pages. */
  narrow?: boolean;
}

const NAV: Array<[NonNullable<PageOptions['section']>, string, string]> = [
  ['overview', '/overview', 'Overview'],
  ['forms', '/forms', 'Forms'],
  ['knowledge', '/knowledge', 'Knowledge'],
  ['integrations', '/integrations', 'Integrations'],
  ['team', '/team', 'Team'],
  ['audit', '/audit', 'Audit log'],
  ['account', '/account', 'Account'],
  ['health', '/health', 'Health'],
];

function header(session: Session, section: PageOptions['section']): Html {
  return html`<header class="top">
  <a class="brand" href="/overview">Intake</a>
  <nav aria-label="Main"><ul>${NAV.map(
    ([key, href, label]) => html`<li><a href="${href}"${key === section ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav>
  ${workspaceMenu(session)}
  <form method="post" action="/logout" class="logout">${csrfField(session)}<button type="submit" class="link">Log out</button></form>
</header>`;
}

/** Shown when the person belongs to several workspaces: which one the dashboard acts in. */
function workspaceMenu(session: Session): Html {
  if (session.workspaces.length < 2) return html``;
  return html`<form method="post" action="/workspace" class="workspace-menu">${csrfField(session)}
  <label for="workspace-switch">Workspace</label>
  <select id="workspace-switch" name="workspace">${session.workspaces.map((w) => html`<option value="${w.id}"${w.id === session.account.id ? ' selected' : ''}>${w.email}</option>`)}</select>
  <button type="submit" class="button secondary">Switch</button></form>`;
}

export function page(options: PageOptions): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${options.title} · Intake</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl('dashboard.css')}">
<script type="module" src="${assetUrl('dashboard.js')}"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${options.session ? header(options.session, options.section) : ''}
<main id="main" class="${options.narrow ? 'narrow' : 'wide'}">
${options.body}
</main>
</body>
</html>`;
}

export function sendPage(reply: FastifyReply, markup: Html, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(markup.text);
}

export function csrfField(session: Session | null, preToken?: string): Html {
  const token = session?.csrfToken ?? preToken ?? '';
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/** A POST form carrying the session's CSRF token. */
export function postForm(session: Session, action: string, content: Html, attributes: Html = html``): Html {
  return html`<form method="post" action="${action}" ${attributes}>${csrfField(session)}${content}</form>`;
}

/** A single button that POSTs, for actions such as enable, retry or delete. */
export function actionButton(session: Session, action: string, label: string, kind = 'secondary', confirm?: string): Html {
  return postForm(
    session,
    action,
    html`<button type="submit" class="button ${kind}"${confirm ? html` data-confirm="${confirm}"` : ''}>${label}</button>`,
    html`class="inline"`,
  );
}

export interface InputOptions {
  name: string;
  label: string;
  value?: string | null;
  type?: string;
  errors?: Errors;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  attributes?: Html;
}

export function input(o: InputOptions): Html {
  const id = `f-${o.name}`;
  const error = o.errors?.[o.name];
  return html`<div class="field${error ? ' invalid' : ''}">
  <label for="${id}">${o.label}</label>
  <input id="${id}" name="${o.name}" type="${o.type ?? 'text'}" value="${o.value ?? ''}"${o.required ? html` required` : ''}${
    o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''
  }${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : o.hint ? html` aria-describedby="${id}-hint"` : ''} ${o.attributes ?? ''}>
  ${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
  ${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
</div>`;
}

export function select(o: { name: string; label: string; value: string; options: Array<[string, string]>; errors?: Errors; hint?: string }): Html {
  const id = `f-${o.name}`;
  const error = o.errors?.[o.name];
  return html`<div class="field${error ? ' invalid' : ''}">
  <label for="${id}">${o.label}</label>
  <select id="${id}" name="${o.name}">${o.options.map(
    ([value, label]) => html`<option value="${value}"${value === o.value ? html` selected` : ''}>${label}</option>`,
  )}</select>
  ${o.hint ? html`<p class="hint">${o.hint}</p>` : ''}
  ${error ? html`<p class="error">${error}</p>` : ''}
</div>`;
}

export function checkbox(o: { name: string; label: string; checked: boolean; hint?: string }): Html {
  const id = `f-${o.name}`;
  return html`<div class="field check">
  <input type="hidden" name="${o.name}" value="false">
  <input id="${id}" type="checkbox" name="${o.name}" value="true"${o.checked ? html` checked` : ''}>
  <label for="${id}">${o.label}</label>
  ${o.hint ? html`<p class="hint">${o.hint}</p>` : ''}
</div>`;
}

export function notice(kind: 'ok' | 'warn' | 'error', message: Html | string): Html {
  return html`<div class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${message}</div>`;
}

/** A secret shown exactly once, with a copy button (the button needs JS; the text is selectable without). */
export function shownOnce(label: string, secret: string): Html {
  return html`<div class="notice ok once" role="status">
  <p><strong>${label}</strong> It is shown only now: copy it somewhere safe.</p>
  <div class="copy-row"><code class="secret" id="once-secret">${secret}</code><button type="button" class="button secondary" data-copy="#once-secret">Copy</button></div>
</div>`;
}

/** Field errors of a service's validation failure, one message per field. */
export function firstErrors(details: Record<string, string[]> | undefined): Errors {
  const errors: Errors = {};
  for (const [field, messages] of Object.entries(details ?? {})) errors[field] = messages.join('; ');
  return errors;
}
