// The workspace's members as tools: every member lists them; owners invite, change roles and remove,
// and delete the workspace (permissions.ts decides, as for /api/members and /api/workspace).
import { Type } from 'typebox';
import { deletionDetail } from '../../workspaces/deletion.ts';
import { DeletedWorkspaceOutput, DeleteWorkspaceBody, InviteBody, InvitedMemberOutput, MemberOutput, presentMember, RoleName } from '../../workspaces/schemas.ts';
import { CREATE, DELETE, defineTool, READ, UPDATE } from '../tool.ts';

export const memberTools = [
  defineTool({
    name: 'list_members',
    title: 'List the workspace members',
    description: "The people of this workspace with their role (owner, admin, editor, viewer) and status (invited until they accept their link, then active). Free.",
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ members: Type.Array(MemberOutput) }),
    annotations: READ,
    async run(_args, { owner, services }) {
      return { members: (await services.workspaces.list(owner)).map(presentMember) };
    },
  }),
  defineTool({
    name: 'invite_member',
    title: 'Invite a member',
    description: 'Owners only. Invites an email with a role; answers a one-time invite_url valid 7 days (also emailed when mail is configured). Give the link to the person: opening it, they set a password (or log in) and join.',
    input: InviteBody,
    output: InvitedMemberOutput,
    annotations: CREATE,
    async run(args, { owner, services }) {
      const { member, inviteUrl, emailed } = await services.workspaces.invite(owner, args);
      return { member: presentMember(member), invite_url: inviteUrl, emailed };
    },
    target: (_args, result) => result?.member.id ?? null,
  }),
  defineTool({
    name: 'update_member',
    title: "Change a member's role",
    description: 'Owners only. The change applies at once to the member, their API keys and their connected apps. The last owner cannot be demoted.',
    input: Type.Object({ id: Type.String({ maxLength: 100 }), role: RoleName }, { additionalProperties: false }),
    output: MemberOutput,
    annotations: UPDATE,
    async run({ id, role }, { owner, services }) {
      return presentMember(await services.workspaces.changeRole(owner, id, role));
    },
  }),
  defineTool({
    name: 'remove_member',
    title: 'Remove a member',
    description: "Owners only. Removes a member (or cancels an invitation); their API keys and connected apps on this workspace stop working at once. The last owner cannot leave.",
    input: Type.Object({ id: Type.String({ maxLength: 100 }) }, { additionalProperties: false }),
    output: Type.Object({ id: Type.String(), removed: Type.Boolean() }),
    annotations: DELETE,
    async run({ id }, { owner, services }) {
      await services.workspaces.remove(owner, id);
      return { id, removed: true };
    },
  }),
  defineTool({
    name: 'delete_workspace',
    title: 'Delete the workspace',
    description: "Owners only. Deletes for good this workspace's forms, submissions, uploaded files, knowledge bases, destinations, API keys, connected apps (this one too) and members. "
      + "Cannot be undone: ask the owner first, then give the workspace's name (its email, from get_account) as confirm; any other value deletes nothing. Members keep their logins.",
    input: DeleteWorkspaceBody,
    output: DeletedWorkspaceOutput,
    annotations: DELETE,
    async run({ confirm }, { owner, services }) {
      return services.workspaceDeletion.delete(owner, confirm, 'mcp');
    },
    target: () => null,
    detail: deletionDetail,
  }),
];
