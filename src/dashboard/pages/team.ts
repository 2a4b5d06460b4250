// The Team page (every member reads it; owners invite, change roles, remove and delete the workspace),
// the invitation page an invitee opens from their link, and the workspace menu's post (docs/teams.md).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, when, type Html } from '../html.ts';
import { actionButton, csrfField, input, notice, page, postForm, select, sendPage, type Errors } from '../layout.ts';
import { text } from '../form-input.ts';
import type { DashboardDeps } from '../deps.ts';
import { sessionOf } from '../page-context.ts';
import { preToken, SESSION_COOKIE, startSessionCookie } from '../session-cookies.ts';
import { DashboardError, type Session } from '../service.ts';
import { AppError } from '../../http/errors.ts';
import { InviteError } from '../../workspaces/service.ts';
import { ROLES, can } from '../../workspaces/permissions.ts';
import type { Member } from '../../workspaces/store.ts';
import type { WorkspaceDeletion } from '../../workspaces/deletion.ts';
import { MIN_PASSWORD_LENGTH } from '../passwords.ts';

const PUBLIC = { config: { public: true } };

/** The session as the principal the workspace service takes (the dashboard acts with the person's role). */
const owner = (session: Session) => ({ account: session.account, personId: session.person.id, role: session.role, keyId: 'dashboard', keyName: session.person.email, scope: 'full' as const });
const ROLE_OPTIONS: Array<[string, string]> = [...ROLES].reverse().map((r) => [r, r]);

function memberRow(session: Session, m: Member): Html {
  const manage = can(session, 'members_manage');
  return html`<tr>
  <td>${m.email}${m.personId === session.person.id ? ' (you)' : ''}</td>
  <td>${manage ? postForm(session, `/team/${m.id}/role`, html`<label class="visually-hidden" for="role-${m.id}">Role of ${m.email}</label><select id="role-${m.id}" name="role">${ROLE_OPTIONS.map(([v]) => html`<option value="${v}"${v === m.role ? ' selected' : ''}>${v}</option>`)}</select> <button type="submit" class="button secondary">Change</button>`, html`class="inline"`) : m.role}</td>
  <td>${m.status === 'invited' ? html`<span class="badge warn">invited</span> until ${when(m.inviteExpiresAt)}` : html`<span class="badge ok">active</span>`}</td>
  <td>${manage ? actionButton(session, `/team/${m.id}/remove`, m.status === 'invited' ? 'Cancel invitation' : 'Remove', 'danger', `Remove ${m.email} from this workspace? Their keys and connected apps here stop at once.`) : ''}</td>
</tr>`;
}

async function teamPage(deps: DashboardDeps, session: Session, extra: { errors?: Errors; inviteUrl?: string; error?: string } = {}): Promise<Html> {
  const members = await deps.services.workspaces.list(owner(session));
  return page({
    title: 'Team',
    session,
    section: 'team',
    body: html`<div class="page-head"><h1>Team</h1><p class="muted">Workspace of ${session.account.email}; your role: <strong>${session.role}</strong></p></div>
${extra.inviteUrl ? notice('ok', html`Invitation created. Send this one-time link (valid 7 days): <code id="invite-url">${extra.inviteUrl}</code>`) : ''}
${extra.error ? notice('error', extra.error) : ''}
<section class="panel"><h2>Members</h2>
<table><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${members.map((m) => memberRow(session, m))}</tbody></table></section>
${can(session, 'members_manage') ? html`<section class="panel narrow-panel" aria-labelledby="invite-title"><h2 id="invite-title">Invite a member</h2>
${postForm(session, '/team/invite', html`${input({ name: 'email', label: 'Email', type: 'email', errors: extra.errors, required: true })}
${select({ name: 'role', label: 'Role', value: 'viewer', options: ROLE_OPTIONS, errors: extra.errors })}
<button type="submit" class="button primary">Invite</button>`)}</section>` : ''}
${can(session, 'workspace_delete') ? dangerZone(session, extra.errors) : ''}`,
  });
}

/** Owners: deleting the workspace, its name typed back (the service refuses anything else). */
function dangerZone(session: Session, errors: Errors | undefined): Html {
  return html`<section class="panel narrow-panel danger-zone" aria-labelledby="delete-title"><h2 id="delete-title">Delete this workspace</h2>
<p>Deletes for good its forms, submissions, uploaded files, knowledge bases, notifications, API keys, connected apps and members. Members keep their logins and their other workspaces.</p>
${postForm(session, '/team/delete-workspace', html`${input({ name: 'confirm', label: `Type the workspace's name, ${session.account.email}, to confirm`, errors, required: true, autocomplete: 'off' })}
<button type="submit" class="button danger">Delete this workspace</button>`)}</section>`;
}

/** After the deletion: where the person can go now (their other workspace, or nowhere until invited). */
function deletedPage(result: WorkspaceDeletion, elsewhere: boolean): Html {
  return page({
    title: 'Workspace deleted',
    session: null,
    narrow: true,
    body: html`<div class="card auth">
  <p class="brand big">Intake</p>
  <h1>Workspace deleted</h1>
  ${notice('ok', `${result.workspace} is deleted: ${result.forms} forms, ${result.submissions} submissions, ${result.files} files, ${result.knowledge_bases} knowledge bases.`)}
  ${elsewhere
    ? html`<p><a class="button primary wide" href="/overview">Go to your other workspace</a></p>`
    : html`<p>Your login stays, in no workspace now: a workspace owner can invite you to theirs.</p><p><a href="/login">Log in</a></p>`}
</div>`,
  });
}

function invitePage(request: FastifyRequest, reply: FastifyReply, deps: DashboardDeps, token: string, info: { email: string; workspace: string; role: string; hasPassword: boolean } | null, error?: string): Html {
  return page({
    title: 'Join a workspace',
    session: null,
    narrow: true,
    body: html`<div class="card auth">
  <p class="brand big">Intake</p>
  <h1>Join a workspace</h1>
  ${error ? notice('error', error) : ''}
  ${info ? html`<p class="lead">${info.workspace} invited <strong>${info.email}</strong> as ${info.role}. ${info.hasPassword ? 'Log in with your password to join.' : 'Choose a password to join.'}</p>
  <form method="post" action="/invite">
    ${csrfField(null, preToken(request, reply, deps.config))}
    <input type="hidden" name="token" value="${token}">
    ${input({ name: 'password', label: info.hasPassword ? 'Password' : 'New password', type: 'password', required: true, autocomplete: info.hasPassword ? 'current-password' : 'new-password', hint: info.hasPassword ? undefined : `At least ${MIN_PASSWORD_LENGTH} characters.` })}
    <button type="submit" class="button primary wide">Join</button>
  </form>` : ''}
</div>`,
  });
}

/** `attempts`: the invitation's post, which tries a password (in the log-in rate-limit zone); `pages`: the rest. */
export async function teamPages(app: FastifyInstance, deps: DashboardDeps, part: 'attempts' | 'pages'): Promise<void> {
  const { workspaces, dashboard } = deps.services;

  async function inviteInfo(token: string) {
    const { member, workspace } = await workspaces.inviteDetails(token);
    const person = await deps.services.accounts.find(member.email);
    return { member, info: { email: member.email, workspace: workspace.email, role: member.role, hasPassword: person ? await dashboard.hasPassword(person) : false } };
  }

  if (part === 'pages') app.get<{ Querystring: { token?: string } }>('/invite', PUBLIC, async (request, reply) => {
    const token = String(request.query.token ?? '');
    try {
      return sendPage(reply, invitePage(request, reply, deps, token, (await inviteInfo(token)).info));
    } catch (error) {
      if (!(error instanceof InviteError)) throw error;
      return sendPage(reply, invitePage(request, reply, deps, token, null, error.message), 410);
    }
  });

  if (part === 'attempts') {
    app.post('/invite', PUBLIC, async (request, reply) => {
      const token = text(request.body, 'token');
      let info: Awaited<ReturnType<typeof inviteInfo>>['info'] | null = null;
      try {
        const found = await inviteInfo(token);
        info = found.info;
        const person = (await deps.services.accounts.find(found.member.email)) ?? (await workspaces.personFor(found.member.email));
        await dashboard.inviteeLogin(person, text(request.body, 'password', false));
        const member = await workspaces.accept(token, person);
        const started = await dashboard.startSessionIn(person, member.workspaceId);
        startSessionCookie(request, reply, deps.config, started.token);
        return reply.redirect('/overview', 303);
      } catch (error) {
        if (error instanceof InviteError) return sendPage(reply, invitePage(request, reply, deps, token, null, error.message), 410);
        if (error instanceof DashboardError) return sendPage(reply, invitePage(request, reply, deps, token, info, error.message), 422);
        throw error;
      }
    });
    return;
  }

  app.get('/team', async (request, reply) => sendPage(reply, await teamPage(deps, sessionOf(request))));

  /** Member changes refused by the rules (last owner, already invited) show on the page, not as an error page. */
  /** `run` answers an invitation's link (shown on the page), a page of its own, or nothing (back to the page). */
  async function change(request: FastifyRequest, reply: FastifyReply, run: (session: Session) => Promise<string | Html | undefined>) {
    const session = sessionOf(request);
    try {
      const outcome = await run(session);
      if (typeof outcome === 'string') return sendPage(reply, await teamPage(deps, session, { inviteUrl: outcome }), 201);
      if (outcome) return sendPage(reply, outcome);
      return reply.redirect('/team', 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500 || error.status === 404) throw error;
      const errors = error.details ? Object.fromEntries(Object.entries(error.details).map(([k, v]) => [k, v[0] ?? ''])) : undefined;
      return sendPage(reply, await teamPage(deps, session, { error: error.message, errors }), 422);
    }
  }

  app.post('/team/invite', (request, reply) => change(request, reply, async (session) =>
    (await workspaces.invite(owner(session), { email: text(request.body, 'email'), role: text(request.body, 'role') })).inviteUrl));
  app.post<{ Params: { id: string } }>('/team/:id/role', (request, reply) => change(request, reply, async (session) => {
    await workspaces.changeRole(owner(session), request.params.id, text(request.body, 'role'));
    return undefined;
  }));
  app.post<{ Params: { id: string } }>('/team/:id/remove', (request, reply) => change(request, reply, async (session) => {
    await workspaces.remove(owner(session), request.params.id);
    return undefined;
  }));

  app.post('/team/delete-workspace', (request, reply) => change(request, reply, async (session) => {
    const result = await deps.services.workspaceDeletion.delete(owner(session), text(request.body, 'confirm'), 'dashboard');
    const elsewhere = (await workspaces.memberships(session.person.id)).length > 0;
    if (!elsewhere) {
      // A member of no workspace has no session to keep (it would find nowhere to act).
      await dashboard.logOut(session);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
    }
    return deletedPage(result, elsewhere);
  }));

  app.post('/workspace', async (request, reply) => {
    const session = sessionOf(request);
    await dashboard.switchWorkspace(session, text(request.body, 'workspace'));
    return reply.redirect('/overview', 303);
  });
}
