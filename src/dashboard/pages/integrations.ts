// Integrations: API keys (generate: named, shown once with a copy button; list; revoke), the apps
// connected with OAuth (list with last use; revoke), and MCP client snippets.
import { can } from '../../workspaces/permissions.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InputError } from '../../accounts/input-error.ts';
import type { ApiKeyRecord } from '../../accounts/store.ts';
import type { ConnectedApp } from '../../oauth/store.ts';
import { baseUrlOf } from '../../http/base-url.ts';
import { AppError } from '../../http/errors.ts';
import { text } from '../form-input.ts';
import { html, when, type Html } from '../html.ts';
import { actionButton, input, notice, page, postForm, select, sendPage, type Errors } from '../layout.ts';
import { flashNotice, redirectWith, takeFlash } from '../flash.ts';
import type { DashboardDeps } from '../deps.ts';
import type { Session } from '../service.ts';
import { sessionOf } from '../page-context.ts';

function keyRow(session: Session, key: ApiKeyRecord): Html {
  return html`<tr>
  <td class="strong">${key.name}</td>
  <td><code>${key.prefix}…</code></td>
  <td>${key.scope === 'read' ? html`<span class="badge">read</span>` : html`<span class="badge">full</span>`}</td>
  <td>${when(key.createdAt)}</td>
  <td>${key.lastUsedAt ? when(key.lastUsedAt) : 'Never'}</td>
  <td>${key.revokedAt ? html`<span class="badge off">revoked</span>` : actionButton(session, `/integrations/keys/${key.id}/revoke`, 'Revoke', 'danger', 'Revoke this key? Programs using it stop working at once.')}</td>
</tr>`;
}

function appRow(session: Session, app: ConnectedApp): Html {
  return html`<tr>
  <td class="strong">${app.clientName}</td>
  <td><code>${app.redirectHost}</code></td>
  <td>${app.scope.includes('full') ? html`<span class="badge">full</span>` : html`<span class="badge">read</span>`}</td>
  <td>${when(app.createdAt)}</td>
  <td>${app.lastUsedAt ? when(app.lastUsedAt) : 'Never'}</td>
  <td>${actionButton(session, `/integrations/apps/${app.grantId}/revoke`, 'Revoke', 'danger', 'Revoke this app? Its next call is refused, and it must ask you again to connect.')}</td>
</tr>`;
}

/** Apps that connected with OAuth (the consent page), each revocable at once. */
function appsSection(session: Session, apps: ConnectedApp[]): Html {
  return html`<section class="panel" aria-labelledby="apps-title">
  <h2 id="apps-title">Connected apps</h2>
  <p class="muted">MCP clients you allowed to sign in with OAuth. Revoking one ends its access at once.</p>
  ${apps.length
    ? html`<div class="table-wrap"><table>
    <thead><tr><th scope="col">App</th><th scope="col">Sends you back to</th><th scope="col">Access</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${apps.map((app) => appRow(session, app))}</tbody></table></div>`
    : html`<p class="muted">No apps connected yet.</p>`}
</section>`;
}

/** Configuration snippets for common MCP clients, with the key just created or a placeholder. */
function mcpSection(base: string, newKey = 'YOUR_API_KEY'): Html {
  const url = `${base}/mcp`;
  const snippets: Array<[string, string, string]> = [
    ['mcp-claude-code', 'Claude Code', `claude mcp add --transport http intake ${url} --header "Authorization: Bearer ${newKey}"`],
    ['mcp-cursor', 'Cursor (~/.cursor/mcp.json)', JSON.stringify({ mcpServers: { intake: { url, headers: { Authorization: `Bearer ${newKey}` } } } }, null, 2)],
    ['mcp-vscode', 'VS Code (.vscode/mcp.json)', JSON.stringify({
      inputs: [{ type: 'promptString', id: 'intake-key', description: 'Intake API key', password: true }],
      servers: { intake: { type: 'http', url, headers: { Authorization: 'Bearer ${input:intake-key}' } } },
    }, null, 2)],
    ['mcp-desktop', 'Claude Desktop (through mcp-remote)', JSON.stringify({
      mcpServers: { intake: { command: 'npx', args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${INTAKE_AUTH}'], env: { INTAKE_AUTH: `Bearer ${newKey}` } } },
    }, null, 2)],
  ];
  return html`<section class="panel" aria-labelledby="mcp-title">
  <h2 id="mcp-title">MCP server</h2>
  <p class="muted">Agents reach everything an owner can do at <code>${url}</code> (Streamable HTTP) with an API key; a read-only key gives them the read tools only.</p>
  ${snippets.map(([id, title, text]) => html`<section class="snippet">
    <div class="snippet-head"><h3 id="${id}-title">${title}</h3><button type="button" class="button secondary small" data-copy="#${id}">Copy</button></div>
    <pre role="region" tabindex="0" aria-labelledby="${id}-title"><code id="${id}">${text}</code></pre>
  </section>`)}
</section>`;
}

interface Listed {
  keys: ApiKeyRecord[];
  apps: ConnectedApp[];
}

/** `newKey`: the key just created, which the snippets then hold instead of a placeholder (this page only). */
function integrationsPage(request: FastifyRequest, deps: DashboardDeps, session: Session, { keys, apps }: Listed, top: Html, errors: Errors = {}, newKey?: string): Html {
  const base = baseUrlOf(request, deps.config.publicUrl);
  return page({
    title: 'Integrations',
    session,
    section: 'integrations',
    body: html`<div class="page-head"><h1>Integrations</h1></div>
${top}
<section class="panel" aria-labelledby="keys-title">
  <h2 id="keys-title">API keys</h2>
  <p class="muted">Programs and agents use a key as <code>Authorization: Bearer KEY</code> on <code>${base}/api/…</code>.</p>
  ${postForm(session, '/integrations/keys', html`<div class="row align-end">
    ${input({ name: 'name', label: 'Key name', errors, required: true, hint: 'Say where it is used, such as “CRM sync”.', attributes: html`maxlength="100"` })}
    ${select({ name: 'scope', label: 'Scope', value: 'full', options: [['full', 'Full: read and change'], ['read', 'Read only']], errors, hint: 'A read-only key can list and read but never change anything or spend credits.' })}
    <button type="submit" class="button primary">Generate new key</button></div>`, html`novalidate`)}
  ${keys.length
    ? html`<div class="table-wrap" role="region" aria-label="API keys" tabindex="0"><table>
    <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Scope</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${keys.map((key) => keyRow(session, key))}</tbody></table></div>`
    : html`<p class="muted">No keys yet.</p>`}
</section>
${appsSection(session, apps)}
${mcpSection(base, newKey)}
<section class="panel" aria-labelledby="docs-title">
  <h2 id="docs-title">API reference</h2>
  <p>The OpenAPI document is at <a href="/openapi.json">/openapi.json</a>; browse it at <a href="/docs">/docs</a>.</p>
</section>`,
  });
}

export async function integrationPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { accounts } = deps.services;
  // An admin or owner sees and revokes every key of the workspace; other members their own only.
  const keysOf = async (session: Session) => (await accounts.listKeys(session.account.email)).filter((key) => can(session, 'settings') || key.personId === session.person.id);
  const listed = async (session: Session): Promise<Listed> => ({ keys: await keysOf(session), apps: await deps.services.oauth.connectedApps(session.account.id) });

  app.get('/integrations', async (request, reply) => {
    const session = sessionOf(request);
    const flash = await takeFlash(request, deps);
    return sendPage(reply, integrationsPage(request, deps, session, await listed(session), flashNotice(flash), {}, flash?.secret?.value));
  });

  app.post('/integrations/keys', async (request, reply) => {
    const session = sessionOf(request);
    try {
      const created = await accounts.createKey({ email: session.account.email, name: text(request.body, 'name'), scope: text(request.body, 'scope') || 'full', personId: session.person.id });
      return redirectWith(request, reply, deps, '/integrations', {
        kind: 'ok', text: 'Key created.', secret: { label: `New ${created.scope === 'read' ? 'read-only ' : ''}API key “${text(request.body, 'name')}”.`, value: created.key },
      });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      const errors: Errors = /scope/.test(error.message) ? { scope: 'Choose full or read.' } : { name: 'Give the key a name of 1 to 100 characters.' };
      return sendPage(reply, integrationsPage(request, deps, session, await listed(session), notice('error', 'The key was not created.'), errors), 422);
    }
  });

  app.post<{ Params: { id: string } }>('/integrations/keys/:id/revoke', async (request, reply) => {
    const session = sessionOf(request);
    const own = (await keysOf(session)).some((key) => key.id === request.params.id);
    if (!own) throw new AppError('not_found', 404, 'Key not found');
    await accounts.revokeKey(request.params.id);
    return redirectWith(request, reply, deps, '/integrations', { kind: 'ok', text: 'Key revoked.' });
  });

  app.post<{ Params: { id: string } }>('/integrations/apps/:id/revoke', async (request, reply) => {
    const session = sessionOf(request);
    await deps.services.oauth.revoke(session.account.id, request.params.id);
    return redirectWith(request, reply, deps, '/integrations', { kind: 'ok', text: 'App revoked.' });
  });
}
