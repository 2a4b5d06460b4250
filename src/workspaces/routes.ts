// /api/members: the workspace's members and invitations; /api/workspace: deleting the workspace. Who
// may call what is permissions.ts's (reading: every member; the rest: owners), checked by requireApiKey.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AccountService } from '../accounts/service.ts';
import type { Config } from '../config.ts';
import { ownerOf, requireApiKey } from '../http/auth.ts';
import { ERROR_BODIES } from '../http/error-docs.ts';
import { useErrorFamily } from '../http/error-replies.ts';
import { DeletedWorkspaceOutput, DeleteWorkspaceBody, InviteBody, InvitedMemberOutput, MemberOutput, MemberParams, presentMember, RoleBody } from './schemas.ts';
import type { WorkspaceService } from './service.ts';
import { deletionDetail, type WorkspaceDeletionService } from './deletion.ts';

const security = [{ apiKey: [] }];
const tags = ['Members'];

export const memberRoutes: FastifyPluginAsyncTypebox<{
  config: Config; accounts: AccountService; workspaces: WorkspaceService; deletion: WorkspaceDeletionService;
}> = async (app, { config, accounts, workspaces, deletion }) => {
  useErrorFamily(app, 'account', config.maxBodyBytes);
  requireApiKey(app, accounts);

  app.get('/api/members', {
    schema: { tags, security, summary: "The workspace's members and pending invitations", response: { 200: Type.Object({ members: Type.Array(MemberOutput) }) } },
  }, async (request) => ({ members: (await workspaces.list(ownerOf(request))).map(presentMember) }));

  app.post('/api/members', {
    schema: { tags, security, summary: 'Invite a member (owners)', body: InviteBody, response: { 201: InvitedMemberOutput } },
  }, async (request, reply) => {
    const { member, inviteUrl, emailed } = await workspaces.invite(ownerOf(request), request.body);
    return reply.code(201).send({ member: presentMember(member), invite_url: inviteUrl, emailed });
  });

  app.patch('/api/members/:id', {
    schema: { tags, security, summary: "Change a member's role (owners; the last owner stays one)", params: MemberParams, body: RoleBody, response: { 200: MemberOutput } },
  }, async (request) => presentMember(await workspaces.changeRole(ownerOf(request), request.params.id, request.body.role)));

  app.delete('/api/members/:id', {
    schema: { tags, security, summary: "Remove a member or cancel an invitation (owners); the member's keys and OAuth grants on this workspace stop at once", params: MemberParams, response: { 200: Type.Object({ id: Type.String(), removed: Type.Boolean() }) } },
  }, async (request) => {
    await workspaces.remove(ownerOf(request), request.params.id);
    return { id: request.params.id, removed: true };
  });

  app.delete('/api/workspace', {
    schema: {
      tags: ['Account'], security, summary: 'Delete the workspace and everything in it (owners)',
      description: "Deletes for good the workspace's forms, submissions, uploaded files (their bytes too), knowledge bases, destinations and delivery logs, "
        + 'API keys, connected apps and members, and its audit log. Members keep their logins and their other workspaces. '
        + "The body must name the workspace (confirm: its email): anything else is refused with 422 cannot_delete and deletes nothing. "
        + "The operator's audit log records the deletion with its counts.",
      // 422 cannot_delete: a confirm that does not name the workspace (what its schema cannot know).
      body: DeleteWorkspaceBody, response: { 200: DeletedWorkspaceOutput, 422: ERROR_BODIES.Error },
    },
  }, async (request) => {
    const result = await deletion.delete(ownerOf(request), request.body.confirm, 'api');
    request.auditDetail = deletionDetail(result);
    return result;
  });
};
