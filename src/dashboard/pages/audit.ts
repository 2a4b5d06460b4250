// The audit log at /audit: who changed what, newest first, through the dashboard, the REST API,
// MCP, the command line or the server itself, filtered by surface with links (no script needed) and
// paged. Also the hook that records the dashboard's own writes, as auditRestWrites does the API's.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditService } from '../../audit/service.ts';
import type { AuditEntry } from '../../audit/store.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, when, type Html } from '../html.ts';
import { page, sendPage } from '../layout.ts';
import { sessionOf } from '../page-context.ts';

const PAGE_SIZE = 25;
const SURFACES: Array<[AuditEntry['surface'] | null, string]> = [
  [null, 'All'], ['dashboard', 'Dashboard'], ['api', 'API'], ['mcp', 'MCP'], ['cli', 'Command line'], ['system', 'System'],
];
const SURFACE_NAMES = new Map(SURFACES);
/** Dashboard POSTs that are not changes to the owner's data. */
const NOT_CHANGES = new Set(['/logout', '/login', '/setup', '/signup', '/set-password']);

/**
 * Records every POST of a logged-in owner (form edits, spam corrections, keys, destinations …),
 * with the route, the id it acted on and whether it worked. Registered before the page routes.
 */
export function auditDashboardWrites(app: FastifyInstance, audit: AuditService): void {
  app.addHook('onSend', async (request: FastifyRequest, reply, payload) => {
    const route = request.routeOptions.url;
    if (request.method !== 'POST' || !request.session || !route || NOT_CHANGES.has(route)) return payload;
    const params = (request.params ?? {}) as Record<string, string>;
    const names = [...route.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    const target = names.length ? (params[names.at(-1)!] ?? null) : null;
    try {
      await audit.recordKeyless({
        accountId: request.session.account.id, surface: 'dashboard', actor: request.session.person.email, member: request.session.person.email,
        operation: `POST ${route}`, targetId: target, outcome: reply.statusCode < 400 ? 'succeeded' : 'failed',
      });
    } catch (error) {
      // The write itself has happened; losing its audit row is logged loudly rather than turned into an error.
      request.log.error({ err: error }, 'could not record an audit entry');
    }
    return payload;
  });
}

function surfaceOf(query: unknown): AuditEntry['surface'] | undefined {
  const asked = (query as { surface?: unknown } | undefined)?.surface;
  return SURFACES.find(([key]) => key !== null && key === asked)?.[0] ?? undefined;
}

function pageOf(query: unknown): number {
  const asked = Number((query as { page?: unknown } | undefined)?.page);
  return Number.isInteger(asked) && asked >= 1 && asked <= 1_000_000 ? asked : 1;
}

function href(surface: AuditEntry['surface'] | undefined, pageNumber: number): string {
  const query = new URLSearchParams();
  if (surface) query.set('surface', surface);
  if (pageNumber > 1) query.set('page', String(pageNumber));
  const text = query.toString();
  return text ? `/audit?${text}` : '/audit';
}

/** `self`: the session's account, which keyless dashboard entries made before this page name by its id. */
function row(entry: AuditEntry, self: { id: string; email: string }): Html {
  const failed = entry.outcome === 'failed';
  return html`<tr>
  <td>${when(entry.created_at)}</td>
  <td class="wrap">${entry.key_name === self.id ? self.email : entry.key_name}${entry.member && entry.member !== entry.key_name ? html` <span class="muted small">(${entry.member})</span>` : ''}</td>
  <td>${SURFACE_NAMES.get(entry.surface) ?? entry.surface}</td>
  <td><code class="wrap">${entry.operation}</code></td>
  <td>${entry.target_id ? html`<code class="wrap">${entry.target_id}</code>` : '—'}</td>
  <td><span class="badge ${failed ? 'spam' : 'ok'}">${failed ? 'failed' : 'succeeded'}</span>${entry.detail ? html` <span class="muted small">${entry.detail}</span>` : ''}</td>
</tr>`;
}

export async function auditPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get('/audit', async (request, reply) => {
    const session = sessionOf(request);
    const surface = surfaceOf(request.query);
    const current = pageOf(request.query);
    const { data, meta } = await deps.services.audit.list(session.account.id, current, PAGE_SIZE, surface);
    const filter = html`<nav class="segmented" aria-label="Surface"><ul>${SURFACES.map(
      ([key, label]) => html`<li><a href="${href(key ?? undefined, 1)}"${(key ?? undefined) === surface ? html` aria-current="page"` : ''}>${label}</a></li>`,
    )}</ul></nav>`;
    const table = html`<div class="table-wrap" tabindex="0" role="region" aria-label="Audit log entries"><table>
  <caption class="visually-hidden">Changes, newest first</caption>
  <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Through</th><th scope="col">What</th><th scope="col">On</th><th scope="col">Outcome</th></tr></thead>
  <tbody>${data.map((entry) => row(entry, session.account))}</tbody></table></div>`;
    const pager = html`<nav class="pager" aria-label="Pages"><p class="muted small">Page ${meta.current_page} of ${Math.max(1, meta.total_pages)} · ${meta.total_count} entries</p>
  <div class="actions">${current > 1 ? html`<a class="button secondary" href="${href(surface, current - 1)}" rel="prev">← Newer</a>` : ''}${
    current < meta.total_pages ? html`<a class="button secondary" href="${href(surface, current + 1)}" rel="next">Older →</a>` : ''
  }</div></nav>`;
    const empty = html`<div class="empty"><h2>Nothing recorded${surface ? html` through ${SURFACE_NAMES.get(surface)}` : ''} yet</h2><p>Changes you make here, with an API key or through an agent over MCP are listed as they happen.</p></div>`;
    return sendPage(reply, page({
      title: 'Audit log',
      session,
      section: 'audit',
      body: html`<div class="page-head row-between"><div><h1>Audit log</h1><p class="muted">Who changed what: in the dashboard, with an API key or through an agent over MCP.</p></div>${filter}</div>
<section class="panel">${data.length ? html`${table}${pager}` : empty}</section>`,
    }));
  });
}
